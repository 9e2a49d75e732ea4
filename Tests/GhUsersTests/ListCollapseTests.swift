import Testing

@testable import gh_users

/// The rule every `--changes` list is measured by, case by case at its edges: what GitHub's ordinary answers
/// (a 2FA drive, invitations that all expire, a spam purge) must not be refused as a collapse, and what must.
struct ListCollapseTests {
    /// A 2FA filter's list (owners only, so an empty or short answer is the list) that shrank from 250 to 100 as
    /// most people turned 2FA on is compared, though it ends at a page: only a list whose people expire is
    /// refused for that (mutation round 10, M10-204).
    @Test func aTwoFactorListThatShrankToAPageIsCompared() {
        var collapse = ListCollapse(list: "members octo-org --2fa-disabled", read: 100, recorded: 250)
        collapse.refusedUnlessSeen = true
        #expect(collapse.refusal == nil)
        collapse.expires = true
        #expect(collapse.refusal?.contains("came back with 100 accounts while the snapshot holds 250") == true)
    }

    /// Invitations that all expired leave an empty list, which is compared (everyone removed), however many
    /// there were; an empty list that may be one the token cannot see says so in its own words (mutation round
    /// 10, M10-207).
    @Test func anEmptyListIsEmptyNotShort() {
        var invitations = ListCollapse(list: "invitations octo-org", read: 0, recorded: 100)
        (invitations.refusedUnlessSeen, invitations.expires) = (true, true)
        #expect(invitations.refusal == nil)
        let members = ListCollapse(list: "members octo-org", read: 0, recorded: 150)
        #expect(members.refusal?.hasPrefix("members octo-org came back empty while the snapshot holds 150") == true)
    }

    /// Where GitHub counts the list, the count is the measure, not the snapshot: followers purged as spam, from
    /// 250 to 100, with the profile counting 100, are compared (mutation round 10, M10-208); a list under half its
    /// count is refused.
    @Test func aCountedListIsMeasuredByItsCount() {
        var followers = ListCollapse(list: "octocat's followers", read: 100, recorded: 250)
        followers.counted = (100, "its profile")
        #expect(followers.refusal == nil)
        followers.counted = (201, "its profile")
        #expect(followers.refusal?.contains("while its profile counts 201") == true)
    }
}
