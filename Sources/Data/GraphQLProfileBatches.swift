import AtomicLogger
import Domain
import Networking

/// `show` and `--full` profiles through GraphQL, a batch at a time (`GraphQLProfilesUseCase` decides the batches).
extension GitHubRepository {
    /// One batch of GraphQL lookups (`graphQL(_:decode:)`). A refusal of the query itself is said once.
    /// A token without the scope GitHub asks for a profile's `email` (a classic token with neither `user:email` nor
    /// `read:user`, such as `gh`'s default `repo, read:org, gist`) has the whole query refused for that field: the
    /// batch is asked again without it, and so is every later one, each profile's `email` null (said once). Before,
    /// such a refusal sent the rest of the run to REST, a request a profile (helper-357).
    package func profiles(_ logins: [Login]) async throws(GraphQLBatchFailure) -> GraphQLBatch {
        let email = profileFields.asksEmail
        var emailScopes: [String]?
        do {
            let answer = try await graphQL(GraphQLProfileQuery.body(for: logins, email: email)) {
                response, endpoint throws(GraphQLBatchFailure) -> GraphQLBatch? in
                if email, let scopes = GraphQLProfileResponse.emailRefusal(response) {
                    emailScopes = scopes
                    return nil
                }
                return try GraphQLProfileResponse.decode(response, logins: logins, endpoint: endpoint)
            }
            guard let batch = answer else {
                if profileFields.refuseEmail() {
                    let named = emailScopes ?? []
                    let scopes = named.isEmpty ? "" : " (" + named.joined(separator: " or ") + ")"
                    logger.warning(
                        "GitHub's GraphQL API gives a profile's email only to a token with the scope it names\(scopes), "
                            + "which this one lacks: email is null in the profiles it gives (add the scope, or use "
                            + "--via rest, for the emails)")
                }
                var again = try await profiles(logins)
                again.requests += 1
                return again
            }
            logger.debug(
                "GraphQL batch of \(logins.count): cost \(batch.cost.map { $0 == 1 ? "1 point" : "\($0) points" } ?? "unknown"), "
                    + "\(batch.remaining.map(String.init) ?? "unknown") remaining")
            return batch
        } catch {
            if case .unsupported(let reason) = error {
                // Said once: the run asks GraphQL nothing more after this.
                logger.warning(
                    "the GraphQL API refused the profile query, so the rest of the run fetches profiles from "
                        + "REST, one request each (the debug log says why)")
                logger.debug("GraphQL refusal: \(HTTPClient.traceText(reason))")
            }
            throw error
        }
    }
}
