import Foundation

/// `per_page`/`page`, and GitHub's page-based `Link` header.
struct StandInPageRequest {
    /// As GitHub: a non-integer or non-positive value is the default, and `per_page` is capped at `limit` (100,
    /// or a resource's own: the star history's 30).
    let perPage: Int
    let page: Int

    init(query: [String: String], limit: Int = 100) {
        let requestedPerPage = query["per_page"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        perPage = min(limit, requestedPerPage ?? 30)
        page = query["page"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 1
    }

    func range(inCount count: Int) -> Range<Int> {
        guard !startsPast(count) else { return count..<count }
        let start = (page - 1) * perPage
        return start..<min(count, start + perPage)
    }

    /// Also for a huge page number whose offset overflows.
    func startsPast(_ cap: Int) -> Bool {
        let (skipped, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
        return overflow || skipped >= cap
    }

    /// The `Link` of a list of `count`; nil when a first page holds everything. The URLs repeat the caller's query
    /// in its order (`per_page` as used), with `page` moved to the end.
    func linkHeader(url: String, target: String, count: Int) -> String? {
        // At least 1: an empty list still has a first page.
        let lastPage = max(1, (count + perPage - 1) / perPage)
        guard page > 1 || lastPage > 1 else { return nil }
        var prefix = url + "?"
        for item in RequestTargetDecoding.orderedQueryItems(target) where item.name != "page" {
            prefix += Self.formEncoded(item.name) + "="
            prefix += item.name == "per_page" ? String(perPage) : Self.formEncoded(item.value)
            prefix += "&"
        }
        prefix += "page="
        var links: [String] = []
        if page > 1 { links.append("<\(prefix)\(page - 1)>; rel=\"prev\"") }
        if page < lastPage {
            links += ["<\(prefix)\(page + 1)>; rel=\"next\"", "<\(prefix)\(lastPage)>; rel=\"last\""]
        }
        if page > 1 { links.append("<\(prefix)1>; rel=\"first\"") }
        return links.joined(separator: ", ")
    }

    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// As GitHub writes query strings into `Link` URLs: spaces become `+`.
    private static func formEncoded(_ text: String) -> String {
        (text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text).replacing("%20", with: "+")
    }
}
