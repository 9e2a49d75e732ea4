import Foundation
import GitHubStandIn
import Testing

/// An organization's members as writes leave them: what `members --changes` sees change between runs (who sees
/// which members, and the filters, are `StandInWorldTests.reads`).
@Suite struct StandInMembershipTests {
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
}
