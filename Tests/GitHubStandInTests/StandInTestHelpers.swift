import Foundation
import TestSupport
import Testing

@testable import GitHubStandIn

/// No answer: a socket that failed, a peer that closed (or stopped answering) early, or a fault that sends none.
struct RawHTTPError: Error {}

struct RawHTTPResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }

    var text: String { String(decoding: body, as: UTF8.self) }

    func jsonObject() throws -> [String: Any] { try json() }
    func jsonArray() throws -> [[String: Any]] { try json() }
    private func json<T>() throws -> T { try #require(JSONSerialization.jsonObject(with: Data(body)) as? T) }

    /// Each element of an array body, as compact text (TestSupport's `JSONTokens`, apart from the stand-in's code).
    func records() -> [String] { JSONTokens.members(text) }
}

/// GitHub's documented body `name` (`Bodies/`), as text, read apart from the stand-in's code.
func documented(_ name: String) -> String { String(decoding: GitHubBodies.named(name), as: UTF8.self) }

/// A stand-in of `configuration`, not listening: `fetch` asks it directly.
func standIn(_ configuration: StandInConfiguration = StandInConfiguration(userCount: 250)) throws -> StandInServer {
    try StandInServer(configuration: configuration)
}

/// The server's answer to one request, as `login` (its stand-in token) where given, with a body where given,
/// from its own request path: everything but the connection (`StandInConnectionTests`).
func fetch(
    _ server: StandInServer, _ target: String, method: String = "GET", headers: [(String, String)] = [],
    as login: String? = nil, body: String = ""
) throws -> RawHTTPResponse {
    let headers = headers + (login.map { bearer(StandInTokens.token(for: $0)) } ?? [])
    let request = RecordedRequest(
        method: method, target: target, headers: headers.map { (name: $0, value: $1) }, body: Array(body.utf8))
    guard case .respond(let response) = server.reply(to: request) else { throw RawHTTPError() }
    return RawHTTPResponse(status: response.status, headers: response.headers, body: response.body)
}

func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer \(token)")] }

func logins(_ response: RawHTTPResponse) throws -> [String] {
    try response.jsonArray().compactMap { $0["login"] as? String }
}

/// `POST /graphql` of `query` (with `variables` where given), or of a whole JSON `body`.
func graphQL(
    _ server: StandInServer, _ query: String = "", variables: [String: String]? = nil, body: [UInt8]? = nil,
    token: String? = "gql-tests"
) throws -> RawHTTPResponse {
    let document: [String: Any] = variables.map { ["query": query, "variables": $0] } ?? ["query": query]
    let body = try body ?? Array(JSONSerialization.data(withJSONObject: document))
    let headers = [("Content-Type", "application/json")] + (token.map(bearer) ?? [])
    return try fetch(server, "/graphql", method: "POST", headers: headers, body: String(decoding: body, as: UTF8.self))
}

/// A request as someone (nil: no token) and what GitHub answers it: a status, the logins a list holds, and
/// top-level (or `a.b` nested) fields of the body as text ("absent" where missing), or the whole body's text.
struct Step: Sendable, CustomTestStringConvertible {
    var method = "GET"
    var target: String
    var login: String?
    var body = ""
    var status = 200
    var logins: [String]? = nil
    var fields: [String: String] = [:]
    var text: String?
    var testDescription: String { "\(method) \(target) as \(login ?? "nobody")" }

    init(_ target: String, as login: String?, _ status: Int, text: String? = nil) {
        (self.target, self.login, self.status, self.text) = (target, login, status, text)
    }
    init(_ target: String, as login: String?, _ logins: [String]) {
        (self.target, self.login, self.logins) = (target, login, logins)
    }
    init(
        _ method: String, _ target: String, as login: String?, body: String = "", _ status: Int,
        _ fields: [String: String] = [:]
    ) {
        (self.method, self.target, self.login, self.body, self.status) = (method, target, login, body, status)
        self.fields = fields
    }

    @discardableResult func run(on server: StandInServer) throws -> RawHTTPResponse {
        let response = try fetch(server, target, method: method, as: login, body: body)
        #expect(response.status == status, "\(testDescription)")
        if let text { #expect(response.text == text, "\(testDescription)") }
        if let logins { #expect(try GitHubStandInTests.logins(response) == logins, "\(testDescription)") }
        for (path, field) in fields {
            let object = path.split(separator: ".").reduce(try response.jsonObject() as Any?) { value($0, String($1)) }
            #expect(object as? String ?? object.map { "\($0)" } ?? "absent" == field, "\(testDescription): \(path)")
        }
        return response
    }
}

let userNotFound =
    #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/users/users#get-a-user","status":"404"}"#
let routeNotFound = #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest","status":"404"}"#
let requiresAuthentication =
    #"{"message":"Requires authentication","documentation_url":"https://docs.github.com/rest/users/users#get-the-authenticated-user","status":"401"}"#
let searchMissingQuery =
    #"{"message":"Validation Failed","errors":[{"resource":"Search","field":"q","code":"missing"}],"documentation_url":"https://docs.github.com/v3/search"}"#
let paginationLimited =
    #"{"message":"In order to keep the API fast for everyone, pagination is limited for this resource.","documentation_url":"https://docs.github.com/v3/#pagination","status":"422"}"#

/// The value at `path` (keys of nested objects) in decoded JSON; nil where there is none.
func value(_ json: Any?, _ path: String...) -> Any? {
    path.reduce(json) { ($0 as? [String: Any])?[$1] }
}

/// Each page of a GraphQL connection (the object at `path` of an answer) from the first to the last: `answer` asks
/// for the page after a cursor (nil: the first).
func pages(at path: String..., answer: (String?) throws -> [String: Any]) throws -> [[String: Any]] {
    var connections: [[String: Any]] = []
    var cursor: String? = nil
    repeat {
        let connection = try #require(path.reduce(try answer(cursor) as Any?) { ($0 as? [String: Any])?[$1] })
        connections.append(try #require(connection as? [String: Any]))
        let info = value(connection, "pageInfo")
        cursor = value(info, "hasNextPage") as? Bool == true ? value(info, "endCursor") as? String : nil
    } while cursor != nil && connections.count < 1_000
    return connections
}

/// The URL of each `rel` of a `Link` header.
func linkRelations(_ header: String?) -> [String: String] {
    let links = (header ?? "").matches(of: #/<([^>]*)>; rel="([^"]*)"/#)
    return Dictionary(links.map { (String($0.2), String($0.1)) }) { _, last in last }
}

/// Follows `rel="next"` from `firstTarget` to the end (60 pages at most), then checks GitHub's page-based rels on
/// each page, each `linkPrefix` and a page number: `prev` and `first` past the first page, `next` and `last` before
/// the last; a lone first page has no Link header at all.
func walkPages(_ server: StandInServer, from firstTarget: String, linkPrefix: String) throws -> [RawHTTPResponse] {
    var responses = [try fetch(server, firstTarget, headers: tokenHeader)]
    while responses.count < 60, let next = linkRelations(responses.last?.header("Link"))["next"] {
        responses.append(try fetch(server, String(next.dropFirst(server.baseURL.count)), headers: tokenHeader))
    }
    for (page, response) in zip(1..., responses) {
        var expected: [String: String] = [:]
        if page > 1 { (expected["prev"], expected["first"]) = ("\(linkPrefix)\(page - 1)", "\(linkPrefix)1") }
        if page < responses.count {
            (expected["next"], expected["last"]) = ("\(linkPrefix)\(page + 1)", "\(linkPrefix)\(responses.count)")
        }
        #expect(response.status == 200, "page \(page) of \(firstTarget): \(response.text)")
        #expect(linkRelations(response.header("Link")) == expected, "page \(page) of \(firstTarget)")
        #expect((response.header("Link") == nil) == expected.isEmpty, "page \(page) of \(firstTarget)")
    }
    return responses
}

/// Auth header for requests that should not run into the anonymous limit of 60.
let tokenHeader = [("Authorization", "Bearer test-token")]
