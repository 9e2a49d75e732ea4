/// The `--fields` each kind of record accepts: GitHub's own key names, from its published schemas, so a
/// field list written for GitHub's API works here unchanged.
enum FieldCatalog {
    /// simple-user: what lists of accounts carry.
    static let account = [
        "login", "id", "node_id", "avatar_url", "gravatar_id", "url", "html_url", "followers_url", "following_url",
        "gists_url", "starred_url", "subscriptions_url", "organizations_url", "repos_url", "events_url",
        "received_events_url", "type", "user_view_type", "site_admin",
    ]

    /// public-user: a profile.
    static let profile =
        account + [
            "name", "company", "blog", "location", "email", "hireable", "bio", "twitter_username", "public_repos",
            "public_gists", "followers", "following", "created_at", "updated_at",
        ]

    /// user-search-result-item.
    static let searchResult = account + ["score"]

    /// minimal-repository.
    static let repository = [
        "id", "node_id", "name", "full_name", "owner", "private", "html_url", "description", "fork", "url",
        "archive_url", "assignees_url", "blobs_url", "branches_url", "collaborators_url", "comments_url",
        "commits_url", "compare_url", "contents_url", "contributors_url", "deployments_url", "downloads_url",
        "events_url", "forks_url", "git_commits_url", "git_refs_url", "git_tags_url", "git_url",
        "issue_comment_url", "issue_events_url", "issues_url", "keys_url", "labels_url", "languages_url",
        "merges_url", "milestones_url", "notifications_url", "pulls_url", "releases_url", "ssh_url",
        "stargazers_url", "statuses_url", "subscribers_url", "subscription_url", "tags_url", "teams_url",
        "trees_url", "clone_url", "mirror_url", "hooks_url", "svn_url", "homepage", "language", "forks_count",
        "stargazers_count", "watchers_count", "size", "default_branch", "open_issues_count", "is_template", "topics",
        "has_issues", "has_projects", "has_wiki", "has_pages", "has_downloads", "has_discussions", "archived",
        "disabled", "visibility", "pushed_at", "created_at", "updated_at", "permissions", "role_name",
        "temp_clone_token", "delete_branch_on_merge", "subscribers_count", "network_count", "code_of_conduct",
        "license", "forks", "open_issues", "watchers", "allow_forking", "web_commit_signoff_required",
        "security_and_analysis", "custom_properties",
    ]

    /// One rate-limit bucket, as `gh-users rate-limit` lists them.
    /// `reset` is GitHub's epoch seconds; `resets_at` the same moment as the default column writes it.
    static let rateLimitBucket = ["resource", "limit", "remaining", "used", "reset", "resets_at"]
}
