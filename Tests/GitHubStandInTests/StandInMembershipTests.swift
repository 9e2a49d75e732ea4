import Foundation
import GitHubStandIn
import Testing

/// One request as `login` (its stand-in token), with a JSON body where given.
private func send(
    _ server: StandInServer, _ method: String, _ target: String, as login: String?, body: String = ""
) throws -> RawHTTPResponse {
    let connection = try RawHTTPConnection(port: server.port)
    var headers = login.map { [("Authorization", "Bearer \(StandInTokens.token(for: $0))")] } ?? []
    if !body.isEmpty { headers.append(("Content-Length", String(body.utf8.count))) }
    try connection.write(
        RawHTTPConnection.requestText(method: method, target: target, headers: headers) + body)
    return try connection.readResponse()
}

private func logins(_ response: RawHTTPResponse) throws -> [String] {
    try response.jsonArray().compactMap { $0["login"] as? String }
}

/// An organization's members, from the world (`World/world.json`) and as writes leave them: what `members
/// --changes` sees change between runs.
@Suite struct StandInMembershipTests {
    /// GitHub's rules over the world's `github`: an unknown organization is 404 (before: octocat, for any name); a
    /// member sees every member, a non-member and the public list only those who show their membership.
    @Test func anUnknownOrganizationIsNotFoundAndANonMemberSeesThePublicMembers() throws {
        try withStandInServer { server throws in
            #expect(try send(server, "GET", "/orgs/no-such-org/members", as: "octocat").status == 404)
            #expect(try send(server, "GET", "/orgs/no-such-org/public_members", as: nil).status == 404)
            let everyone = [
                "octocat", "lively-otter-8", "Yamada-Taro", "kitsune-fox", "Happy-Otter-5", "jollyotter6",
                "CalmFalcon19",
            ]
            let shown = ["octocat", "Yamada-Taro", "jollyotter6", "CalmFalcon19"]
            #expect(try logins(send(server, "GET", "/orgs/github/members", as: "kitsune-fox")) == everyone)
            #expect(try logins(send(server, "GET", "/orgs/github/members", as: "eager-falcon-20")) == shown)
            #expect(try logins(send(server, "GET", "/orgs/github/public_members", as: "octocat")) == shown)
            #expect(
                try logins(send(server, "GET", "/orgs/github/members?role=admin", as: "octocat"))
                    == ["octocat", "lively-otter-8"])
            #expect(try logins(send(server, "GET", "/orgs/github/members?role=member", as: "octocat")).count == 5)
        }
    }

    /// An invitation is pending, and listed to no one, until it is accepted; then members see the new member and
    /// anyone else still sees only the public ones. A role changes at once; a removal is 204.
    @Test func peopleJoinChangeRoleAndLeaveAsAnOwnerAndTheyMakeIt() throws {
        try withStandInServer { server throws in
            let invited = try send(
                server, "PUT", "/orgs/acme/memberships/Yamada-Taro", as: "octocat", body: #"{"role":"member"}"#)
            #expect(invited.status == 200)
            #expect(try invited.jsonObject()["state"] as? String == "pending")
            #expect(try logins(send(server, "GET", "/orgs/acme/members", as: "octocat")) == ["octocat"])
            let accepted = try send(
                server, "PATCH", "/user/memberships/orgs/acme", as: "Yamada-Taro", body: #"{"state":"active"}"#)
            #expect(try accepted.jsonObject()["state"] as? String == "active")
            #expect(try logins(send(server, "GET", "/orgs/acme/members", as: "octocat")) == ["octocat", "Yamada-Taro"])
            #expect(try logins(send(server, "GET", "/orgs/acme/members", as: "kitsune-fox")) == ["octocat"])
            #expect(try logins(send(server, "GET", "/orgs/acme/public_members", as: "Yamada-Taro")) == ["octocat"])

            let promoted = try send(
                server, "PUT", "/orgs/acme/memberships/Yamada-Taro", as: "octocat", body: #"{"role":"admin"}"#)
            #expect(try promoted.jsonObject()["role"] as? String == "admin")
            #expect(
                try logins(send(server, "GET", "/orgs/acme/members?role=admin", as: "Yamada-Taro"))
                    == ["octocat", "Yamada-Taro"])
            let removed = try send(server, "DELETE", "/orgs/acme/members/octocat", as: "Yamada-Taro")
            #expect(removed.status == 204)
            #expect(try logins(send(server, "GET", "/orgs/acme/members", as: "Yamada-Taro")) == ["Yamada-Taro"])
            // Another organization is untouched.
            #expect(
                try logins(send(server, "GET", "/orgs/octo-org/members", as: "octocat"))
                    == ["Yamada-Taro", "octocat", "eager-falcon-20", "gentlefalcon22"])
        }
    }

    @Test func onlyAnOwnerChangesMembersAndOnlyWithARoleGitHubKnows() throws {
        try withStandInServer { server throws in
            let member = #"{"role":"member"}"#
            #expect(
                try send(server, "PUT", "/orgs/acme/memberships/kitsune-fox", as: "Yamada-Taro", body: member).status
                    == 403)
            #expect(try send(server, "DELETE", "/orgs/acme/members/octocat", as: "Yamada-Taro").status == 403)
            #expect(
                try send(server, "PUT", "/orgs/acme/memberships/no-such-account", as: "octocat", body: member).status
                    == 404)
            #expect(
                try send(server, "PUT", "/orgs/acme/memberships/kitsune-fox", as: "octocat", body: #"{"role":"boss"}"#)
                    .status == 422)
            #expect(try send(server, "PUT", "/orgs/acme/memberships/kitsune-fox", as: nil, body: member).status == 401)
            // Accepting needs an invitation.
            #expect(
                try send(
                    server, "PATCH", "/user/memberships/orgs/acme", as: "kitsune-fox", body: #"{"state":"active"}"#
                ).status == 404)
        }
    }

    /// The 2FA filters are for owners, and list the members in that state.
    @Test func theTwoFactorFiltersAreAnOwnersAndListThoseInThatState() throws {
        try withStandInServer { server throws in
            let owner = try send(server, "GET", "/orgs/github/members?filter=2fa_disabled", as: "octocat")
            #expect(owner.status == 200)
            #expect(try logins(owner) == ["Happy-Otter-5"])
            #expect(
                try logins(send(server, "GET", "/orgs/github/members?filter=2fa_insecure", as: "octocat")) == [
                    "jollyotter6"
                ])
            #expect(
                try send(server, "GET", "/orgs/github/members?filter=2fa_disabled", as: "Yamada-Taro").status == 403)
        }
    }
}
