import Foundation

/// `bench-org`: an organization of 1,000 repositories with about 150 people each, for `Scripts/bench`'s access
/// workload (`github-standin --access-bench`). Like the population it is computed, never stored, and the same every
/// time: octocat (an owner) and 140 User accounts of the population from ordinal 101 on as members (every 20th an
/// owner, every 3rd public, every 9th without two-factor), base permission `read`; four teams of ten, the last three
/// children of the first, granting triage, push, maintain and admin on 25 repositories each; and ten outside
/// collaborators on each repository out of the thousand accounts after the members. `StandInWorld`'s rules answer
/// it as they answer the world's own organizations.
extension StandInWorld {
    package static let benchOrganization = "bench-org"

    /// The world with `benchOrganization` beside its own; accounts the population does not hold are left out.
    package func addingBenchOrganization(_ population: StandInPopulation) -> StandInWorld {
        let users = population.users.filter { $0.type == "User" && $0.ordinal > 100 }.map(\.login)
        func login(_ index: Int) -> String? { index < users.count ? users[index] : nil }
        let members = (0..<140).compactMap { index in
            login(index).map {
                Member(
                    login: $0, role: index % 20 == 0 ? "admin" : "member", isPublic: index % 3 == 0,
                    twoFactor: index % 9 == 4 ? "disabled" : "enabled")
            }
        }
        let names = (0..<1_000).map { Self.benchOrganization + String(format: "/repo-%04d", $0) }
        let teams = (0..<4).map { team in
            Team(
                slug: "team-\(team)", name: "Team \(team)", parent: team == 0 ? nil : "team-0",
                members: (0..<10).compactMap {
                    login(team * 10 + $0 + 1).map { TeamMember(login: $0, role: "member") }
                },
                repositories: Dictionary(
                    (0..<25).map { (names[($0 * 40 + team * 7) % names.count], Self.permissions[team + 1]) }
                ) { $1 })
        }
        var world = self
        world.organizations.append(
            Organization(
                login: Self.benchOrganization, basePermission: "read",
                members: [Member(login: "octocat", role: "admin")] + members, teams: teams))
        world.repositories += names.enumerated().map { index, name in
            let logins = (0..<10).compactMap { login(140 + (index * 10 + $0) % 1_000) }
            let collaborators = Dictionary(
                logins.enumerated().map { ($1, Self.permissions[(index + $0) % 3]) }, uniquingKeysWith: { $1 })
            return Repository(
                fullName: name, collaborators: collaborators, stars: [], watchers: [], forks: [], contributors: [])
        }
        return world
    }
}
