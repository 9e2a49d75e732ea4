import Foundation

/// `per_page`/`page` handling and the page-based `Link` header GitHub sends on list and search endpoints.
struct StandInPageRequest {
    static let defaultPerPage = 30
    static let maximumPerPage = 100

    /// Effective page size: non-integer or non-positive values fall back to 30 and anything above 100 is capped,
    /// as GitHub does.
    let perPage: Int
    /// 1-based; non-integer or non-positive values mean the first page.
    let page: Int

    init(query: [String: String]) {
        let requestedPerPage = query["per_page"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        perPage = min(Self.maximumPerPage, requestedPerPage ?? Self.defaultPerPage)
        page = query["page"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 1
    }

    /// The 0-based item offsets of this page within a list of `count` items (empty past the end).
    func range(inCount count: Int) -> Range<Int> {
        guard !startsPast(count) else {
            return count..<count
        }
        let start = (page - 1) * perPage
        return start..<min(count, start + perPage)
    }

    /// Whether this page's first item would lie at or past `cap`, as for a huge page number whose offset overflows.
    func startsPast(_ cap: Int) -> Bool {
        let (skipped, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
        return overflow || skipped >= cap
    }

    /// How many pages `count` items fill; at least 1, since an empty list still has a first page.
    func pageCount(forCount count: Int) -> Int {
        max(1, (count + perPage - 1) / perPage)
    }

    /// GitHub's `Link` header: `prev` and `first` after page 1, `next` and `last` before the last page, nothing at
    /// all when a first page holds everything.
    ///
    /// The URLs repeat the caller's query parameters in their order (values re-encoded, `per_page` as
    /// effectively used) with `page` moved to the end.
    func linkHeader(baseURL: String, path: String, target: String, lastPage: Int) -> String? {
        if page == 1 && lastPage <= 1 {
            return nil
        }
        var prefix = baseURL + path + "?"
        for item in RequestTargetDecoding.orderedQueryItems(target) where item.name != "page" {
            prefix += StandInFormEncoding.encode(item.name) + "="
            prefix += item.name == "per_page" ? String(perPage) : StandInFormEncoding.encode(item.value)
            prefix += "&"
        }
        prefix += "page="
        var links: [String] = []
        if page > 1 {
            links.append("<\(prefix)\(page - 1)>; rel=\"prev\"")
        }
        if page < lastPage {
            links.append("<\(prefix)\(page + 1)>; rel=\"next\"")
            links.append("<\(prefix)\(lastPage)>; rel=\"last\"")
        }
        if page > 1 {
            links.append("<\(prefix)1>; rel=\"first\"")
        }
        return links.joined(separator: ", ")
    }
}

/// `application/x-www-form-urlencoded` value encoding, the way GitHub writes query strings into `Link` URLs:
/// spaces become `+` and everything but unreserved characters is percent-encoded.
enum StandInFormEncoding {
    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// A literal `%` becomes `%25`, so every `%20` left is a space.
    static func encode(_ text: String) -> String {
        (text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text).replacing("%20", with: "+")
    }
}
