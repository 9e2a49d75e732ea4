import AtomicCore
import AtomicLogger
import Domain
import Foundation
import Networking

/// `UsersRepository` over GitHub's REST API.
package struct GitHubUsersRepository: UsersRepository {
    private let fetcher: ConditionalFetcher
    private let endpoint: UsersEndpoint

    package init(
        client: HTTPClient,
        cache: CacheSettings = .disabled,
        logger: Logger = .disabled,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.fetcher = ConditionalFetcher(client: client, settings: cache, logger: logger, now: now)
        self.endpoint = UsersEndpoint(apiRoot: client.configuration.baseURL)
    }

    package func listUsers(since: Int64, perPage: Int) async throws(DomainError) -> UserPage {
        try await page(at: endpoint.list(since: since, perPage: perPage))
    }

    package func users(at cursor: PageCursor) async throws(DomainError) -> UserPage {
        guard let url = URL(string: cursor.url), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw DomainError.malformedResponse(endpoint: "GET /users", detail: "the next-page link is not a URL")
        }
        return try await page(at: url)
    }

    package func user(login: Login) async throws(DomainError) -> User {
        let response = try await fetch(
            endpoint.user(login), endpoint: "GET /users/\(login.value)", resource: "user '\(login.value)'")
        return try ResponseDecoder.user(from: response.body, endpoint: "GET /users/\(login.value)")
    }

    private func page(at url: URL) async throws(DomainError) -> UserPage {
        let response = try await fetch(url, endpoint: "GET \(url.path)?\(url.query ?? "")", resource: "users")
        let users = try ResponseDecoder.users(from: response.body, endpoint: "GET /users")
        let next = LinkHeader(response.headers["Link"]).next.map(PageCursor.init(url:))
        return UserPage(users: users, next: next)
    }

    private func fetch(_ url: URL, endpoint: String, resource: String) async throws(DomainError) -> HTTPResponse {
        let response = try await fetcher.get(url, endpoint: endpoint)
        if let error = ErrorMapping.domainError(for: response, resource: resource) {
            throw error
        }
        return response
    }
}

/// Decodes bodies into entities, keeping each object's exact bytes for JSON output.
enum ResponseDecoder {
    static func users(from body: Foundation.Data, endpoint: String) throws(DomainError) -> [User] {
        let dtos: [UserDTO]
        do {
            dtos = try JSONDecoder().decode([UserDTO].self, from: body)
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: describe(error))
        }
        let bytes = [UInt8](body)
        let ranges: [Range<Int>]
        do {
            ranges = try JSONText.arrayElements(bytes)
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: error.reason)
        }
        guard ranges.count == dtos.count else {
            throw .malformedResponse(endpoint: endpoint, detail: "the array could not be split into its elements")
        }
        return zip(dtos, ranges).map { dto, range in dto.toDomain(raw: RawJSON(bytes: Array(bytes[range]))) }
    }

    static func user(from body: Foundation.Data, endpoint: String) throws(DomainError) -> User {
        do {
            let dto = try JSONDecoder().decode(UserDTO.self, from: body)
            var raw: [UInt8] = []
            JSONText.compact(body, into: &raw)
            return dto.toDomain(raw: RawJSON(bytes: raw))
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _):
            return "a required field '\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "a field has the wrong type" + (path.isEmpty ? "" : " at '\(path)'")
        case DecodingError.dataCorrupted:
            return "the body is not valid JSON"
        default:
            return "the body could not be read"
        }
    }
}
