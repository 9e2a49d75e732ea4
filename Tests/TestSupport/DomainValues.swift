import Domain

/// An account as a list carries it: its id and login (`user<id>` unless given), the raw JSON `account(_:_:)` writes.
package func makeUser(_ id: Int64, _ login: String? = nil) -> User {
    let name = login ?? "user\(id)"
    return User(
        id: id, login: name, htmlURL: "https://github.com/\(name)", raw: RawJSON(#"{"login":"\#(name)","id":\#(id)}"#))
}

package func makeRepo(_ id: Int64, _ name: String, fork: Bool = false, language: String? = "Swift") -> Repo {
    Repo(
        id: id,
        name: name,
        fullName: "octocat/\(name)",
        description: "about \(name)",
        language: language,
        fork: fork,
        stargazers: Int(id) * 10,
        forks: Int(id),
        raw: RawJSON(#"{"id":\#(id),"name":"\#(name)","full_name":"octocat/\#(name)","fork":\#(fork)}"#)
    )
}
