import Foundation

/// The profile fields `PATCH /user` changed, by account: one store per server, read by every profile answer.
final class StandInProfileEdits: @unchecked Sendable {
    private let lock = NSLock()
    private var edits: [Int: StandInProfileEdit] = [:]

    func edit(of user: StandInUser) -> StandInProfileEdit? {
        lock.withLock { edits[user.ordinal] }
    }

    /// Keeps `edit`'s fields over the account's earlier ones, and returns what the account's edit now is.
    func record(_ edit: StandInProfileEdit, for user: StandInUser) -> StandInProfileEdit {
        lock.withLock {
            let merged = edits[user.ordinal].map { $0.updated(by: edit) } ?? edit
            edits[user.ordinal] = merged
            return merged
        }
    }
}

/// The fields of `PATCH /user`'s body, by GitHub's names; nil: not sent, so not changed. `updatedAt` is when.
package struct StandInProfileEdit: Decodable, Sendable {
    var name: String?
    var bio: String?
    var blog: String?
    var location: String?
    var company: String?
    var twitterUsername: String?
    var hireable: Bool?
    /// Unix seconds; not part of the body.
    var updatedAt = 0

    enum CodingKeys: String, CodingKey {
        case name, bio, blog, location, company, hireable
        case twitterUsername = "twitter_username"
    }

    /// This edit with `later`'s fields over its own.
    func updated(by later: StandInProfileEdit) -> StandInProfileEdit {
        StandInProfileEdit(
            name: later.name ?? name, bio: later.bio ?? bio, blog: later.blog ?? blog,
            location: later.location ?? location, company: later.company ?? company,
            twitterUsername: later.twitterUsername ?? twitterUsername, hireable: later.hireable ?? hireable,
            updatedAt: later.updatedAt)
    }

    /// The profile as the edit leaves it.
    func apply(to profile: inout StandInUserProfile) {
        profile.name = name ?? profile.name
        profile.bio = bio ?? profile.bio
        profile.blog = blog ?? profile.blog
        profile.location = location ?? profile.location
        profile.company = company ?? profile.company
        profile.twitterUsername = twitterUsername ?? profile.twitterUsername
        profile.hireable = hireable ?? profile.hireable
        profile.updatedAt = updatedAt
    }
}

/// `PATCH /user`: changes the signed-in account's profile, for a token with the `user` scope (else GitHub's
/// refusal of a missing scope), and answers with its private profile as it now is, which every later profile
/// answer shows. A body that is not JSON is 400; a field of the wrong type is 422, naming it; keys GitHub does not
/// document are ignored, as GitHub ignores them.
struct StandInProfileEditHandler: StandInHandler {
    let edits: StandInProfileEdits

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let signedIn = request.signedInAccount else {
            return request.signInRefusal()
        }
        if let refusal = request.scopeRefusal(unlessOneOf: ["user"]) { return refusal }
        var edit: StandInProfileEdit
        do {
            edit = try JSONDecoder().decode(StandInProfileEdit.self, from: Data(request.body))
        } catch DecodingError.typeMismatch(_, let context) {
            let key = context.codingPath.first?.stringValue ?? "body"
            return StandInErrorBody.response(
                422, message: "Invalid request.\n\nFor 'properties/\(key)', the value is not of the documented type.",
                documentationURL: request.documentation)
        } catch {
            return StandInErrorBody.response(
                400, message: "Problems parsing JSON", documentationURL: request.documentation)
        }
        edit.updatedAt = request.now
        let current = edits.record(edit, for: signedIn)
        let counts = request.followGraph.profileCounts(of: signedIn)
        return StandInHTTPResponse(
            status: 200, body: signedIn.privateUserJSONBytes(followCounts: counts, edit: current))
    }
}

extension StandInUser {
    /// When the profile last changed: the edit's time, else the population's.
    func profileUpdatedAt(_ edit: StandInProfileEdit?) -> Int {
        edit?.updatedAt ?? StandInProfileNumbers(ordinal: ordinal).updatedAt
    }
}
