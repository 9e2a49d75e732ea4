import Domain
import Foundation
import Networking

/// GraphQL's refusals of the token, which come with status 200: an `INSUFFICIENT_SCOPES` error ("Your token has
/// not been granted the required scopes to execute this query. The 'login' field requires one of the following
/// scopes: ['read:org'], but your token has only been granted the: ['repo'] scopes. …"), and an organization's
/// SAML enforcement (`FORBIDDEN`, "Resource protected by organization SAML enforcement. …"). Either is what a 403
/// says over REST, so it is the same failure (exit 4) with the same hint: the scopes GitHub names, or that the
/// token must be authorized for the organization's single sign-on. Any other `FORBIDDEN` is a refusal too.
enum GraphQLRefusal {
    typealias ErrorDTO = GraphQLProfileResponseDTO.ErrorDTO

    /// The failure `errors` are, naming GitHub's message: a refusal of the token if any of them is one, or else
    /// the first error, as GitHub's answer (exit 1). nil when there is no error.
    static func failure(among errors: [ErrorDTO], _ response: HTTPResponse, requestID: String?) -> DomainError? {
        let problems = errors.map { problem($0, response) }
        guard let index = problems.firstIndex(where: { $0 != nil }) ?? (errors.isEmpty ? nil : 0) else { return nil }
        let message = "GraphQL: " + (errors[index].message ?? errors[index].type ?? "an error")
        guard let problem = problems[index] else {
            // GitHub's validation of a query against a schema without the field: an Enterprise Server older than
            // the query, whose answer said no more than "answered HTTP 200" (helper-336).
            let text = errors[index].message ?? ""
            let schema = text.hasPrefix("Field '") && text.contains("' doesn't exist on type '")
            let why = schema ? " (this server's GraphQL schema lacks a field gh-users asks for: an older server?)" : ""
            return .server(status: response.status, message: message + why, requestID: requestID)
        }
        var named = problem
        if case .scope = problem {
            // Each refused field names the scopes it accepts: all of them, each once, in GitHub's order.
            var scopes: [String] = []
            for error in errors where isScopeRefusal(error) {
                for scope in acceptedScopes(error.message ?? "") where !scopes.contains(scope) { scopes.append(scope) }
            }
            named = .scope(accepted: scopes.isEmpty ? nil : scopes.joined(separator: ", "))
        }
        return .unauthorized(status: response.status, message: message, problem: named, requestID: requestID)
    }

    /// What `error` says of the token, if it refuses it: any `FORBIDDEN` does ("Resource not accessible by
    /// personal access token", a fine-grained token without the permission), as REST's 403 for it does.
    private static func problem(_ error: ErrorDTO, _ response: HTTPResponse) -> AccessProblem? {
        if isScopeRefusal(error) { return .scope(accepted: nil) }
        if error.type == nil || error.type == "FORBIDDEN", ErrorMapping.isAboutSingleSignOn(error.message ?? "") {
            return .singleSignOn(url: ErrorMapping.singleSignOnURL(response))
        }
        return error.type == "FORBIDDEN" ? .unstated : nil
    }

    /// The scopes GitHub accepts for a profile's `email` (`user:email`, `read:user`), when `errors` refuse that
    /// field alone: "… The 'email' field requires one of the following scopes: ['user:email', 'read:user'], but
    /// your token has only been granted the: ['repo'] scopes" (atom/github issue #660, mntnr/name-your-contributors
    /// issue #67), `data` null. nil when they refuse anything else, or nothing.
    static func emailScopes(among errors: [ErrorDTO]) -> [String]? {
        guard !errors.isEmpty,
            errors.allSatisfy({ isScopeRefusal($0) && ($0.message ?? "").contains("The 'email' field requires") })
        else { return nil }
        return acceptedScopes(errors[0].message ?? "")
    }

    /// GitHub's `INSUFFICIENT_SCOPES`, or its sentence with no type, as answers before the type was given had it.
    private static func isScopeRefusal(_ error: ErrorDTO) -> Bool {
        error.type == "INSUFFICIENT_SCOPES"
            || (error.type == nil && (error.message ?? "").contains("has not been granted the required scopes"))
    }

    /// The scopes in "requires one of the following scopes: ['read:org', 'read:discussion']": only words a scope
    /// can be (`read:org`, `admin:public_key`), at most `maximumScopes`, since the text is the server's.
    static func acceptedScopes(_ message: String) -> [String] {
        guard let start = message.range(of: "following scopes: [")?.upperBound,
            let end = message[start...].firstIndex(of: "]")
        else { return [] }
        let quotes = CharacterSet(charactersIn: "'\" ")
        let scopes = message[start..<end].split(separator: ",").map { $0.trimmingCharacters(in: quotes) }
            .filter(isScopeName)
        return Array(scopes.prefix(maximumScopes))
    }

    /// Whether the server's `text` is a word a scope can be (`read:org`, `admin:public_key`): lower-case letters,
    /// digits, `:`, `_` and `-`, at most `maximumScopeLength` of them; nothing else GitHub sends is printed as one.
    static func isScopeName(_ text: String) -> Bool {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789:_-")
        return !text.isEmpty && text.count <= maximumScopeLength && text.unicodeScalars.allSatisfy(allowed.contains)
    }

    static let maximumScopes = 8
    static let maximumScopeLength = 40
}
