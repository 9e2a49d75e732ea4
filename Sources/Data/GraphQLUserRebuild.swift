import Domain
import Foundation
import JSONBytes

/// A GraphQL `User` as `GraphQLProfileQuery`'s fragment asks for it. Every field is optional here: what is
/// missing makes the rebuild give up, and REST answers for that account instead.
struct GraphQLUserDTO: Decodable, Equatable {
    struct Count: Decodable, Equatable {
        let totalCount: Int?
    }

    let typename: String?
    let databaseId: Int64?
    let id: String?
    let login: String?
    let name: String?
    let company: String?
    let location: String?
    let bio: String?
    let twitterUsername: String?
    let websiteUrl: String?
    let email: String?
    let isHireable: Bool?
    let isSiteAdmin: Bool?
    let createdAt: String?
    let updatedAt: String?
    let url: String?
    let avatarUrl: String?
    let followers: Count?
    let following: Count?
    let repositories: Count?
    let gists: Count?

    enum CodingKeys: String, CodingKey {
        case typename = "__typename"
        case databaseId, id, login, name, company, location, bio, twitterUsername, websiteUrl, email, isHireable
        case isSiteAdmin, createdAt, updatedAt, url, avatarUrl, followers, following, repositories, gists
    }
}

/// Everything that crosses from GraphQL to GitHub's REST public-user object, in one place and in REST's key
/// order. 26 keys are exact; 7 are approximate, and `approximateKeys` (which `help formats` and docs/USAGE.md
/// list) names them:
/// - `avatar_url`: on github.com rebuilt from `databaseId` (REST's form), elsewhere GraphQL's `avatarUrl`;
/// - `blog`: `websiteUrl`, where null stands for both REST's null and its "";
/// - `email`: GraphQL's "" for no public email becomes null, so a real "" cannot be told from it;
/// - `hireable`: `isHireable` false becomes null, as REST mostly sends it;
/// - `public_repos`: public repositories the account owns (leaving out `ownerAffiliations` overcounts);
/// - `public_gists`: public gists;
/// - `updated_at`: GraphQL's own record of the last change.
/// A GraphQL `User` as a list's edge holds it (a stargazer, a team member): the fields REST's `simple-user` needs.
struct GraphQLAccountNodeDTO: Decodable {
    let databaseId: Int64?
    let id: String?
    let login: String?
    let url: String?
    let avatarUrl: String?
    let isSiteAdmin: Bool?

    /// REST's `simple-user` keys, `login` to `site_admin` (`type` User, `user_view_type` public, as GitHub's
    /// answers have it since 2024), with its id, login and web page; nil when a field it needs is missing or the
    /// page is no GitHub web address.
    var simpleUser: (id: Int64, login: String, htmlURL: String, members: [JSONValue.Member])? {
        guard let databaseId, let id, let login, let url,
            let account = GraphQLUserRebuild.accountKeys(
                login: login, databaseId: databaseId, nodeID: id, htmlURL: url, avatarURL: avatarUrl)
        else { return nil }
        let members =
            account + [
                .init("type", .string("User")), .init("user_view_type", .string("public")),
                .init("site_admin", .bool(isSiteAdmin ?? false)),
            ]
        return (databaseId, login, url, members)
    }
}

enum GraphQLUserRebuild {
    static let approximateKeys = [
        "avatar_url", "blog", "email", "hireable", "public_repos", "public_gists", "updated_at",
    ]

    /// The REST object for `dto`, whose login must be the one asked (case aside, as GitHub's logins are); nil
    /// when a field REST needs is missing or the account is not a User.
    static func user(_ dto: GraphQLUserDTO, asked login: Login) -> User? {
        guard dto.typename == "User", let databaseId = dto.databaseId, let nodeID = dto.id,
            let name = dto.login, name.lowercased() == login.value.lowercased(),
            let htmlURL = dto.url,
            let followers = dto.followers?.totalCount, let following = dto.following?.totalCount,
            let repositories = dto.repositories?.totalCount, let gists = dto.gists?.totalCount,
            let createdAt = dto.createdAt, let updatedAt = dto.updatedAt,
            let account = accountKeys(
                login: name, databaseId: databaseId, nodeID: nodeID, htmlURL: htmlURL, avatarURL: dto.avatarUrl)
        else { return nil }
        let object = JSONValue.object(
            account + [
                .init("type", .string("User")),
                .init("user_view_type", .string("public")),
                .init("site_admin", .bool(dto.isSiteAdmin ?? false)),
                .init("name", optional(dto.name)),
                .init("company", optional(dto.company)),
                .init("blog", .string(dto.websiteUrl ?? "")),
                .init("location", optional(dto.location)),
                .init("email", optional(dto.email.flatMap { $0.isEmpty ? nil : $0 })),
                .init("hireable", dto.isHireable == true ? .bool(true) : .null),
                .init("bio", optional(dto.bio)),
                .init("twitter_username", optional(dto.twitterUsername)),
                .init("public_repos", .integer(Int64(repositories))),
                .init("public_gists", .integer(Int64(gists))),
                .init("followers", .integer(Int64(followers))),
                .init("following", .integer(Int64(following))),
                .init("created_at", .string(createdAt)),
                .init("updated_at", .string(updatedAt)),
            ])
        let bytes = object.bytes
        guard let rest = try? JSONDecoder().decode(UserDTO.self, from: Foundation.Data(bytes)) else { return nil }
        return rest.toDomain(raw: RawJSON(bytes: bytes))
    }

    /// A REST account object's keys from `login` to `received_events_url`, in REST's order, for an account whose
    /// web page is `htmlURL`; nil when that is no GitHub web address. `avatar_url` is rebuilt from the id on
    /// github.com (REST's form there), else GraphQL's `avatarUrl`.
    static func accountKeys(
        login: String, databaseId: Int64, nodeID: String, htmlURL: String, avatarURL: String?
    ) -> [JSONValue.Member]? {
        guard let apiRoot = restRoot(forProfile: htmlURL) else { return nil }
        let account = apiRoot + "/users/" + login
        let avatar: JSONValue =
            isGitHubDotCom(htmlURL)
            ? .string("https://avatars.githubusercontent.com/u/\(databaseId)?v=4") : optional(avatarURL)
        return [
            .init("login", .string(login)),
            .init("id", .integer(databaseId)),
            .init("node_id", .string(nodeID)),
            .init("avatar_url", avatar),
            .init("gravatar_id", .string("")),
            .init("url", .string(account)),
            .init("html_url", .string(htmlURL)),
            .init("followers_url", .string(account + "/followers")),
            .init("following_url", .string(account + "/following{/other_user}")),
            .init("gists_url", .string(account + "/gists{/gist_id}")),
            .init("starred_url", .string(account + "/starred{/owner}{/repo}")),
            .init("subscriptions_url", .string(account + "/subscriptions")),
            .init("organizations_url", .string(account + "/orgs")),
            .init("repos_url", .string(account + "/repos")),
            .init("events_url", .string(account + "/events{/privacy}")),
            .init("received_events_url", .string(account + "/received_events")),
        ]
    }

    private static func optional(_ text: String?) -> JSONValue {
        text.map(JSONValue.string) ?? .null
    }

    /// The REST API root that serves the account whose web page is `profileURL`: `https://api.github.com` for
    /// github.com, `https://api.SUBDOMAIN.ghe.com` for GitHub Enterprise Cloud with data residency, and
    /// `/api/v3` on an Enterprise Server's host. REST's own `url` keys name that root whatever address the
    /// client reached the API by (a proxy, a tunnel, a stand-in), so the rebuild does too.
    static func restRoot(forProfile profileURL: String) -> String? {
        guard let url = URL(string: profileURL), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        if host == "github.com" { return "https://api.github.com" }
        if host.hasSuffix(".ghe.com") { return "https://api." + host }
        return scheme + "://" + host + (url.port.map { ":\($0)" } ?? "") + "/api/v3"
    }

    private static func isGitHubDotCom(_ profileURL: String) -> Bool {
        URL(string: profileURL)?.host?.lowercased() == "github.com"
    }
}
