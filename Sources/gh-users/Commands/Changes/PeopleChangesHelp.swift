import Data
import Domain

extension PeopleChangeKey {
    /// The help's paragraph on `--changes`, for a list with or without roles.
    static func discussion(_ key: PeopleChangeKey) -> String {
        let roles = key.takesRoles
        return """
            CHANGES: --changes FILE writes who joined and who left since the last run with FILE, one record
            each: {"change":"added","login":…,"id":…} or "removed" (with the login FILE recorded), and for a
            person matched by id whose login changed, "renamed" with "previous_login".\(roles ? """
             Each record has "role"; a person whose role changed is "changed", with "previous_role".
            """ : "")\(key.fallbackName == nil ? "" : """
             An invitation sent to an email address has a null "login" and the address under "email" (a
            previous one under "previous_email").
            """) On a terminal the table marks them + (added), − (removed), ~ (renamed)\(roles ? " and ! (changed)" : "").
            Then FILE is replaced, atomically and 0600, with the whole list as it is now (ids, logins\(roles ? ", roles" : "") and
            which list it is); the first run only records it and says so. It reads the whole list as GitHub
            has it now (--all is implied; --limit, --full and --offline cannot be used with it). A run that
            stops before its changes are all written and read (a failed request, a refusal, a rate limit,
            Ctrl-C, a full stdout, a reader that left or took nothing for 5 seconds, a network that cannot be
            reached, where --changes never answers from the cache: said, exit status 1) leaves FILE as it was, so
            the next run reports them again; so does a login GitHub cannot issue\(key.shrinksWhole ? """
            . GitHub lists invitations to the organization's owners alone and they expire after 7 days, so
            a list that came back empty, or far short of FILE, is recorded as it is, unless it ends at a
            page (a multiple of the page size, 100 or --per-page's, 100 or more short of FILE and under half
            of it), as a cut list does
            """ : """
            , and a list that came back
            empty where FILE holds people\(key.counted.map { ", or with fewer than half the repository's \($0)" } ?? "")\
            , or, where GitHub gives no count, with fewer than half the people FILE holds and 100 or more
            short of them (exit status 1, both numbers said)
            """). A FILE that is not a snapshot, or
            one made for another list (another command, owner or filters) or against another API root
            (--api-url, GH_HOST), is exit status 1 and left as it is; one run at a time may use it (FILE.lock). FILE records the owner's id (GET /orgs/{org}, a
            team's organization's, or GET /repos/{owner}/{repo}); only when FILE's owner name differs from
            the one given is the id asked again: the same id is the owner renamed, and the snapshot carries
            on under the new name, said on stderr; another id, or an answer without one, is another list; a
            lookup that fails ends the run with its own exit status.
            """
    }
}
