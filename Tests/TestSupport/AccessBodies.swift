import Foundation
import Networking

/// GitHub's GraphQL answers to the access map's three queries (`gh-users access ORG`), written to the public
/// schema (octokit/graphql-schema's `schema.graphql`, July 2026): `Organization.membersWithRole` edges
/// (`role` ADMIN|MEMBER, `hasTwoFactorEnabled` nullable, `node { login databaseId }`) beside `Query.viewer`
/// (`User!`: `login`, `databaseId`), `Organization.repositories`
/// nodes (`name`, `nameWithOwner`, `isArchived`), and aliased `repository(owner:, name:)` lookups whose
/// `collaborators(affiliation: ALL)` edges carry `permission` (`RepositoryPermission`) and `permissionSources`
/// (`permission`: `DefaultRepositoryPermissionField`, `roleName`, `source` with its `__typename`). A refused
/// repository is `collaborators: null` beside an error of type `FORBIDDEN` whose `path` names the field, in the
/// shape of GraphQL's errors GitHub sends (`message`, `type`, `path`, `locations`); the values are made up, and
/// `Tests/DataTests/Fixtures/NOTICE.md` names the recorded answers they follow.
package enum AccessBodies {
    /// One `PermissionSource`: `type` is the granter's `__typename` (Organization, Team, Repository), `name` its
    /// login, slug or nameWithOwner.
    package struct Source: Sendable {
        package let type: String
        package let name: String
        package let permission: String
        package let roleName: String?

        package init(_ type: String, _ name: String, _ permission: String, roleName: String? = nil) {
            self.type = type
            self.name = name
            self.permission = permission
            self.roleName = roleName
        }

        var json: String {
            let key = type == "Organization" ? "login" : type == "Team" ? "slug" : "nameWithOwner"
            let role = roleName.map { #""\#($0)""# } ?? "null"
            return #"{"permission":"\#(permission)","roleName":\#(role),"source":{"__typename":"\#(type)","#
                + #""\#(key)":"\#(name)"}}"#
        }
    }

    /// One `RepositoryCollaboratorEdge`.
    package struct Collaborator: Sendable {
        package let login: String
        package let id: Int64
        package let permission: String
        package let sources: [Source]

        package init(_ login: String, _ id: Int64, _ permission: String, _ sources: [Source]) {
            self.login = login
            self.id = id
            self.permission = permission
            self.sources = sources
        }

        var json: String {
            #"{"permission":"\#(permission)","permissionSources":["#
                + sources.map(\.json).joined(separator: ",")
                + #"],"node":{"login":"\#(login)","databaseId":\#(id)}}"#
        }
    }

    /// One `OrganizationMemberEdge`; `twoFactor` nil is GitHub's null.
    package struct Member: Sendable {
        package let login: String
        package let id: Int64
        package let role: String
        package let twoFactor: Bool?

        package init(_ login: String, _ id: Int64, _ role: String, twoFactor: Bool?) {
            self.login = login
            self.id = id
            self.role = role
            self.twoFactor = twoFactor
        }

        var json: String {
            let twoFactor = self.twoFactor.map { $0 ? "true" : "false" } ?? "null"
            return #"{"role":"\#(role)","hasTwoFactorEnabled":\#(twoFactor),"#
                + #""node":{"login":"\#(login)","databaseId":\#(id)}}"#
        }
    }

    /// The token's account, as `viewer` gives it beside the members.
    package struct Viewer: Sendable {
        package let login: String
        package let id: Int64

        package init(_ login: String, _ id: Int64) {
            self.login = login
            self.id = id
        }

        /// An account that is no member of the organization.
        package static let outsider = Viewer("not-a-member", 4_000_001)

        /// The token of a member of `members` when there is one (the first), else of `outsider`.
        static func member(of members: [Member]) -> Viewer {
            members.first.map { Viewer($0.login, $0.id) } ?? outsider
        }

        var json: String { #"{"login":"\#(login)","databaseId":\#(id)}"# }
    }

    /// One aliased page's answer in a batch.
    package enum Page: Sendable {
        case collaborators([Collaborator], next: String?)
        /// `collaborators: null`, and a FORBIDDEN error at its path.
        case forbidden
        /// `repository: null`, and a NOT_FOUND error at its path.
        case notFound(String)
    }

    static let cost = #""rateLimit":{"cost":1,"remaining":4990,"resetAt":"2027-01-15T08:00:00Z"}"#

    static func pageInfo(_ next: String?) -> String {
        next.map { #"{"hasNextPage":true,"endCursor":"\#($0)"}"# } ?? #"{"hasNextPage":false,"endCursor":null}"#
    }

    /// A page of `members`, beside `viewer`: nil is the first member's token (`Viewer.member(of:)`), which GitHub
    /// shows every member.
    package static func members(_ members: [Member], viewer: Viewer? = nil, next: String? = nil) -> String {
        let viewer = viewer ?? Viewer.member(of: members)
        return #"{"data":{\#(cost),"viewer":\#(viewer.json),"organization":{"membersWithRole":{"pageInfo":"#
            + pageInfo(next) + #","edges":["# + members.map(\.json).joined(separator: ",") + "]}}}}"
    }

    /// `names` are the repositories' names within `organization`.
    package static func repositories(_ names: [String], of organization: String, total: Int? = nil, next: String? = nil)
        -> String
    {
        let nodes = names.map {
            #"{"name":"\#($0)","nameWithOwner":"\#(organization)/\#($0)","isArchived":false}"#
        }
        return #"{"data":{\#(cost),"organization":{"repositories":{"totalCount":\#(total ?? names.count),"#
            + #""pageInfo":\#(pageInfo(next)),"nodes":["# + nodes.joined(separator: ",") + "]}}}}"
    }

    /// The answer to one batch: `pages[i]` answers alias `r{i}`.
    package static func batch(_ pages: [Page]) -> String {
        var members: [String] = []
        var errors: [String] = []
        for (index, page) in pages.enumerated() {
            switch page {
            case .collaborators(let people, let next):
                members.append(
                    #""r\#(index)":{"collaborators":{"pageInfo":\#(pageInfo(next)),"edges":["#
                        + people.map(\.json).joined(separator: ",") + "]}}")
            case .forbidden:
                members.append(#""r\#(index)":{"collaborators":null}"#)
                errors.append(
                    #"{"type":"FORBIDDEN","path":["r\#(index)","collaborators"],"#
                        + #""locations":[{"line":\#(3 + 3 * index),"column":5}],"#
                        + #""message":"You do not have permission to view repository collaborators."}"#)
            case .notFound(let name):
                members.append(#""r\#(index)":null"#)
                errors.append(
                    #"{"type":"NOT_FOUND","path":["r\#(index)"],"locations":[{"line":\#(3 + 3 * index),"column":3}],"#
                        + #""message":"Could not resolve to a Repository with the name '\#(name)'."}"#)
            }
        }
        let data = #"{"data":{\#(cost),"# + members.joined(separator: ",") + "}"
        return errors.isEmpty ? data + "}" : data + #","errors":["# + errors.joined(separator: ",") + "]}"
    }

    /// The answer to a lookup of repositories by name (`repository(owner:, name:) { nameWithOwner }` per alias):
    /// `found[i]` answers alias `r{i}` with the name GitHub gives it, or null beside a NOT_FOUND error naming
    /// `asked[i]`.
    package static func names(_ found: [String?], asked: [String]) -> String {
        var members: [String] = []
        var errors: [String] = []
        for (index, name) in found.enumerated() {
            guard let name else {
                members.append(#""r\#(index)":null"#)
                errors.append(
                    #"{"type":"NOT_FOUND","path":["r\#(index)"],"locations":[{"line":\#(3 + index),"column":3}],"#
                        + #""message":"Could not resolve to a Repository with the name '\#(asked[index])'."}"#)
                continue
            }
            members.append(#""r\#(index)":{"nameWithOwner":"\#(name)"}"#)
        }
        let data = #"{"data":{\#(cost),"# + members.joined(separator: ",") + "}"
        return errors.isEmpty ? data + "}" : data + #","errors":["# + errors.joined(separator: ",") + "]}"
    }

    /// No organization of that login: `organization: null` beside a NOT_FOUND error.
    package static func unknownOrganization(_ login: String) -> String {
        #"{"data":{\#(cost),"organization":null},"errors":[{"type":"NOT_FOUND","path":["organization"],"#
            + #""locations":[{"line":3,"column":3}],"#
            + #""message":"Could not resolve to an Organization with the login of '\#(login)'."}]}"#
    }

    /// The spent graphql bucket, as GitHub answers it with status 200.
    package static let rateLimited =
        #"{"errors":[{"type":"RATE_LIMIT","code":"graphql_rate_limit","#
        + #""message":"API rate limit already exceeded for user ID 7."}]}"#
}

/// A GitHub of a few lines for the access map's queries, for `StubTransport.answerEvery`: one organization's
/// members, repositories and collaborators, served page by page from cursors it makes (`"c<offset>"`), with
/// every page asked kept, so a test sees how requests were batched and that no page was asked twice.
package final class AccessWorld: @unchecked Sendable {
    package let organization: String
    private let members: [AccessBodies.Member]
    private let viewer: AccessBodies.Viewer
    /// Repository name → its collaborators, in the order GitHub would give them.
    private let collaborators: [String: [AccessBodies.Collaborator]]
    private let forbidden: Set<String>
    /// Former names → names: `repository(owner:, name:)` follows a rename, as GitHub's does.
    private let renamed: [String: String]
    /// The order the repositories are listed in; nil: by name, case aside.
    private let listing: [String]?
    /// The listing's `totalCount`; nil: how many it lists.
    private let counted: Int?
    private let pageSize: Int
    private let lock = NSLock()
    private var asked: [[String]] = []
    private var looked: [[String]] = []

    package init(
        organization: String, members: [AccessBodies.Member], collaborators: [String: [AccessBodies.Collaborator]],
        forbidden: Set<String> = [], renamed: [String: String] = [:], listing: [String]? = nil, counted: Int? = nil,
        pageSize: Int = 100, viewer: AccessBodies.Viewer? = nil
    ) {
        self.organization = organization
        self.members = members
        self.viewer = viewer ?? AccessBodies.Viewer.member(of: members)
        self.collaborators = collaborators
        self.forbidden = forbidden
        self.renamed = renamed
        self.listing = listing
        self.counted = counted
        self.pageSize = pageSize
    }

    /// Each batch's pages as "NAME@CURSOR" ("NAME@" for a first page), one array per POST, in the order served.
    package var batches: [[String]] { lock.withLock { asked } }

    /// Each lookup of repositories by name: the names asked, one array per POST.
    package var lookups: [[String]] { lock.withLock { looked } }

    /// The repository `repository(owner:, name:)` finds, case aside and through a rename, as its name is spelt
    /// here; nil when the organization has none of that name.
    private func named(owner: String?, _ name: String) -> String? {
        guard owner?.lowercased() == organization.lowercased() else { return nil }
        let current = renamed.first { $0.key.lowercased() == name.lowercased() }?.value ?? name
        return (Array(collaborators.keys) + forbidden).first { $0.lowercased() == current.lowercased() }
    }

    package func answer(_ request: HTTPRequest) -> HTTPResponse {
        let query = Self.query(of: request)
        let body: String
        if query.contains("membersWithRole") {
            let (slice, next) = page(members, after: Self.cursor(in: query))
            body = AccessBodies.members(slice, viewer: viewer, next: next)
        } else if query.contains("repositories(") {
            let names = listing ?? collaborators.keys.sorted { $0.lowercased() < $1.lowercased() }
            let (slice, next) = page(names, after: Self.cursor(in: query))
            body = AccessBodies.repositories(slice, of: organization, total: counted ?? names.count, next: next)
        } else if !query.contains("collaborators(") {
            let lines = query.split(separator: "\n").filter { $0.contains(": repository(") }.map(String.init)
            let names = lines.map { Self.quoted(after: "name: ", in: $0) ?? "" }
            let owners = lines.map { Self.quoted(after: "owner: ", in: $0) }
            let found = zip(owners, names).map { owner, name in
                named(owner: owner, name).map { organization + "/" + $0 }
            }
            lock.withLock { looked.append(names) }
            body = AccessBodies.names(found, asked: zip(owners, names).map { ($0 ?? "") + "/" + $1 })
        } else {
            let lines = query.split(separator: "\n").map(String.init)
            let repositories = lines.filter { $0.contains(": repository(") }
            let names = repositories.map { Self.quoted(after: "name: ", in: $0) ?? "" }
            let owners = repositories.map { Self.quoted(after: "owner: ", in: $0) }
            // Each alias's collaborators line follows it, in the same order.
            let asks = lines.filter { $0.contains("collaborators(first:") }
            let cursors = asks.map { Self.quoted(after: "after: ", in: $0) }
            // `collaborators(login:)`: that one person's access alone.
            let logins = asks.map { Self.quoted(after: "login: ", in: $0)?.lowercased() }
            var pages: [AccessBodies.Page] = []
            var served: [String] = []
            for (index, name) in names.enumerated() {
                let cursor = index < cursors.count ? cursors[index] : nil
                served.append(name + "@" + (cursor ?? ""))
                let found = named(owner: owners[index], name)
                if let found, forbidden.contains(found) {
                    pages.append(.forbidden)
                } else if let found, let people = collaborators[found] {
                    let login = index < logins.count ? logins[index] : nil
                    let people = people.filter { login == nil || $0.login.lowercased() == login }
                    let (slice, next) = page(people, after: cursor)
                    pages.append(.collaborators(slice, next: next))
                } else {
                    pages.append(.notFound((owners[index] ?? "") + "/" + name))
                }
            }
            lock.withLock { asked.append(served) }
            body = AccessBodies.batch(pages)
        }
        return HTTPResponse(status: 200, headers: HTTPHeaders(), body: Data(body.utf8), url: request.url)
    }

    private func page<Item>(_ items: [Item], after cursor: String?) -> ([Item], String?) {
        let start = cursor.flatMap { Int($0.dropFirst()) } ?? 0
        let end = min(items.count, start + pageSize)
        return (Array(items[min(start, end)..<end]), end < items.count ? "c\(end)" : nil)
    }

    /// The query text of a POST body `{"query": "…"}`.
    package static func query(of request: HTTPRequest) -> String {
        guard let body = request.body,
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let query = object["query"] as? String
        else { return "" }
        return query
    }

    private static func cursor(in query: String) -> String? {
        quoted(after: "after: ", in: query)
    }

    private static func quoted(after marker: String, in text: String) -> String? {
        guard let range = text.range(of: marker + "\"") else { return nil }
        let rest = text[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
