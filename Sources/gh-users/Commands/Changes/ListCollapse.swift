import Domain

/// The one rule by which every `--changes` run refuses a whole list that cannot be the list as it is: one that
/// came back with fewer than half the people GitHub counts for it elsewhere (a profile's `followers`, a
/// repository's `forks_count`), or, where GitHub gives no count, with fewer than half the people the snapshot
/// holds, or empty where the snapshot holds people. GitHub answers so for what the token
/// may no longer see, or for part of a list, with a 200 (or contributors' 204) and nothing to tell it from the
/// truth: recorded, it would report everyone as removed now and as added on the next run. The run is refused
/// (exit 1), FILE left as it was, and the message says both numbers.
struct ListCollapse {
    /// The list in words: `me's followers`, `collaborators octocat/Hello-World`.
    let list: String
    /// How many the list came back with.
    let read: Int
    /// What GitHub counts the list at and who says so (`its profile`, `the repository's forks_count`); nil where
    /// GitHub gives no count (a set operation's output, most people lists).
    var counted: (count: Int, by: String)?
    /// How many the snapshot holds; nil on a first run.
    var recorded: Int?
    /// What the list holds, in the plural (`records` for an access map).
    var noun = "accounts"
    /// Whether GitHub refuses the list outright to a token that may not see it, so that an empty answer is the
    /// list: the 2FA filters (of members and outside collaborators) are for owners alone (GitHub's 422 to anyone
    /// else), and so are an organization's invitations, which expire within a week.
    var refusedUnlessSeen = false
    /// Whether the list's people go by themselves (invitations expire): a list far short of the snapshot is
    /// taken, but not one that ends exactly at a page, as a list cut at a page does (helper-342).
    var expires = false
    /// The run's page size (`--per-page`, else GitHub's most): a list that ends exactly at one of its pages may
    /// be a cut one (helper-351's R2: at `--per-page 30` a cut at 60 is no multiple of 100).
    var pageSize = PagingPlan.maximumPerPage

    /// Why the list is not compared, or nil for a list to compare. People do leave: a list at half its count or
    /// more is taken as it is.
    var refusal: String? {
        if let (count, by) = counted, read.multipliedReportingOverflow(by: 2).partialValue < count {
            return
                "\(list) came back with \(Counted.text(read, plural: noun)) while \(by) counts \(count), so the list "
                + "was not compared: GitHub answered only part of it; run again later"
        }
        // Without a count, the snapshot is the only measure: a list cut short (a page that ends it early) would
        // otherwise be recorded, everyone past the cut reported as gone now and as come back on the next run. A cut
        // is of whole pages (a `--changes` run asks GitHub's most a page unless `--per-page` says less), so a list
        // short of less than 100 is taken as it is: two of three may go.
        if counted == nil, read > 0, let recorded, recorded - read >= PagingPlan.maximumPerPage,
            read.multipliedReportingOverflow(by: 2).partialValue < recorded,
            !refusedUnlessSeen || (expires && read % pageSize == 0)
        {
            return "\(list) came back with \(Counted.text(read, plural: noun)) while the snapshot holds \(recorded), "
                + "so the list was not compared: GitHub answers part of a list at times; run again later. If more "
                + "than half did go, the snapshot file holds who was there: keep a copy of it, then remove it to start "
                + "again"
        }
        if read == 0, let recorded, recorded > 0, !refusedUnlessSeen {
            return "\(list) came back empty while the snapshot holds \(Counted.text(recorded, plural: noun)), so the "
                + "list was not compared: GitHub answers an empty list for one the token can no longer see as well as "
                + "for one everyone left. If everyone did leave, those the snapshot file holds are who left: keep a "
                + "copy of it, then remove it to start again"
        }
        return nil
    }
}
