import Domain
import Foundation
import JSONBytes

extension GitHubEndpoints {
    /// `GET /repos/{owner}/{repo}`: the repository, GitHub's object as sent; a 404 names it as the list did
    /// ("repository 'octocat/Hello-World'").
    package static func repository(_ owner: ListOwner) -> Resource<Record> {
        Resource(.repository, segments: owner.segments, missing: owner.name, decode: object)
    }

    /// What a list's 404 asks to tell an owner that does not exist from a list withheld from the token
    /// (`ResourceRepository.ownerAnswer(to:of:)`): `GET /orgs/{org}` for an organization and for a team, `GET
    /// /repos/{owner}/{repo}` for a repository; its 404 names the owner ("organization 'nosuchorg'").
    package static func owner(_ owner: ListOwner) -> Resource<Record> {
        Resource(owner.lookup.endpoint, segments: owner.lookup.segments, missing: owner.lookup.name, decode: object)
    }

    /// One JSON object, GitHub's as sent (compacted).
    @Sendable private static func object(_ body: ResourceBody) throws(DomainError) -> Record {
        guard (try? JSONText.objectMembers(body.bytes)) != nil else {
            throw .malformedResponse(endpoint: body.label, detail: "not a JSON object")
        }
        var raw: [UInt8] = []
        JSONText.compact(body.bytes, into: &raw)
        return Record(id: nil, raw: RawJSON(bytes: raw))
    }
}

/// What a list of people is listed under: an organization, a repository or a team, as the row's path
/// placeholders take it, and as a 404 names it ("repository 'octocat/Hello-World'").
package struct ListOwner: Sendable, Equatable, CustomStringConvertible {
    /// The path segments, percent-encoded, in the order of the row's placeholders.
    package let segments: [String]
    /// What a 404 lacks, in words.
    package let name: String
    /// As the command line gives it (`octocat/Hello-World`).
    package let description: String
    /// What is asked when the list is a 404 (`GitHubEndpoints.owner(_:)`).
    package let lookup: Lookup
    /// The team, for a team: its lookup is its organization's, so a 404 may be no such team as well.
    package private(set) var team: TeamName? = nil

    /// The owner's own row, its segments, and what its 404 lacks. A team's is its organization's: `GET
    /// /orgs/{org}` answers anyone, while `GET /orgs/{org}/teams/{team_slug}` answers only the organization's
    /// members with read:org, the same who may list the team's members, so its 404 would tell nothing apart.
    package struct Lookup: Sendable, Equatable {
        package let endpoint: Endpoint
        package let segments: [String]
        package let name: String
    }

    package static func organization(_ login: Login) -> ListOwner {
        let segments = [URLEncoding.pathSegment(login.value)]
        let name = "organization '\(login.value)'"
        return ListOwner(
            segments: segments, name: name, description: login.value,
            lookup: Lookup(endpoint: .organization, segments: segments, name: name))
    }

    package static func repository(_ repository: RepositoryName) -> ListOwner {
        let segments = [
            URLEncoding.pathSegment(repository.owner.value), URLEncoding.pathSegment(repository.name),
        ]
        let name = "repository '\(repository)'"
        return ListOwner(
            segments: segments, name: name, description: repository.description,
            lookup: Lookup(endpoint: .repository, segments: segments, name: name))
    }

    package static func team(_ team: TeamName) -> ListOwner {
        ListOwner(
            segments: [URLEncoding.pathSegment(team.organization.value), URLEncoding.pathSegment(team.slug)],
            name: "team '\(team)'", description: team.description, lookup: organization(team.organization).lookup,
            team: team)
    }
}
