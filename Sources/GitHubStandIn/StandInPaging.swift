import Foundation

/// `per_page`/`page`, and GitHub's page-based `Link` header.
struct StandInPageRequest {
    static let defaultPerPage = 30
    static let maximumPerPage = 100

    /// As GitHub: a non-integer or non-positive value is the default, and `per_page` is capped at 100.
    let perPage: Int
    let page: Int

    init(query: [String: String]) {
        let requestedPerPage = query["per_page"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        perPage = min(Self.maximumPerPage, requestedPerPage ?? Self.defaultPerPage)
        page = query["page"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 1
    }

    func range(inCount count: Int) -> Range<Int> {
        guard !startsPast(count) else {
            return count..<count
        }
        let start = (page - 1) * perPage
        return start..<min(count, start + perPage)
    }

    /// Also for a huge page number whose offset overflows.
    func startsPast(_ cap: Int) -> Bool {
        let (skipped, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
        return overflow || skipped >= cap
    }

    /// At least 1: an empty list still has a first page.
    func pageCount(forCount count: Int) -> Int {
        max(1, (count + perPage - 1) / perPage)
    }

    /// Nil when a first page holds everything. The URLs repeat the caller's query in its order (`per_page` as
    /// used), with `page` moved to the end.
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

/// Form encoding, as GitHub writes query strings into `Link` URLs: spaces become `+`.
enum StandInFormEncoding {
    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    static func encode(_ text: String) -> String {
        (text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text).replacing("%20", with: "+")
    }
}
