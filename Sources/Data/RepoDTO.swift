import Domain
import Foundation
import Networking

/// GitHub's minimal-repository object as the listings send it; only `id`, `name` and `full_name` are required.
struct RepoDTO: Decodable {
    let id: Int64
    let name: String
    let fullName: String
    let description: String?
    let language: String?
    let fork: Bool?
    let stargazersCount: Int?
    let forksCount: Int?
    let htmlURL: String?

    enum CodingKeys: String, CodingKey {
        case id
        case name
        case fullName = "full_name"
        case description
        case language
        case fork
        case stargazersCount = "stargazers_count"
        case forksCount = "forks_count"
        case htmlURL = "html_url"
    }

    func toDomain(raw: RawJSON) -> Repo {
        Repo(
            id: id,
            name: name,
            fullName: fullName,
            description: description,
            language: language,
            fork: fork,
            stargazers: stargazersCount,
            forks: forksCount,
            htmlURL: htmlURL,
            raw: raw
        )
    }
}

/// `GET /search/users`: `{"total_count", "incomplete_results", "items"}`.
struct UserSearchDTO: Decodable {
    let totalCount: Int
    let incompleteResults: Bool?
    let items: [UserDTO]

    enum CodingKeys: String, CodingKey {
        case totalCount = "total_count"
        case incompleteResults = "incomplete_results"
        case items
    }
}

/// `GET /rate_limit`: the buckets under `resources`; an answer of GitHub's older shape, `rate` alone (the
/// core bucket, from before `resources` named the others), is read as that one bucket.
struct RateLimitDTO: Decodable {
    struct Bucket: Decodable {
        let limit: Int
        let remaining: Int
        let used: Int?
        let reset: Int64

        /// The most a bucket's limit, remaining or used may be: the bound the headers' counters have
        /// (`HeaderValue.count`), far above any limit GitHub sets.
        static let largestCount = Int(Int32.max)

        /// The bucket as the domain has it, when its numbers are ones GitHub sends: counts from 0 to
        /// `largestCount` and a reset within the year 9999 (`HeaderValue.maximumEpochSeconds`), as the headers'
        /// are. Any other makes the answer from `endpoint` malformed; unbounded, one traps later, in
        /// `limit - remaining` or in converting the reset back from a `Date`.
        func bucket(named name: String, endpoint: String) throws(DomainError) -> RateLimitBucket {
            let counts = [("limit", limit), ("remaining", remaining)] + (used.map { [("used", $0)] } ?? [])
            for (key, value) in counts where !(0...Self.largestCount).contains(value) {
                throw .malformedResponse(
                    endpoint: endpoint,
                    detail: "the \(name) bucket's \(key) \(value) is not a count from 0 to \(Self.largestCount)")
            }
            guard (0...HeaderValue.maximumEpochSeconds).contains(reset) else {
                throw .malformedResponse(
                    endpoint: endpoint,
                    detail: "the \(name) bucket's reset \(reset) is not a time in whole seconds since 1970 "
                        + "(up to year 9999)")
            }
            return RateLimitBucket(
                resource: name, limit: limit, remaining: remaining, used: used,
                resetAt: Date(timeIntervalSince1970: TimeInterval(reset)))
        }
    }

    let resources: [String: Bucket]

    private enum CodingKeys: String, CodingKey {
        case resources, rate
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if !container.contains(.resources), let rate = try container.decodeIfPresent(Bucket.self, forKey: .rate) {
            resources = ["core": rate]
        } else {
            resources = try container.decode([String: Bucket].self, forKey: .resources)
        }
    }
}
