import Foundation

/// The fields of `PATCH /user`'s body; nil: not sent, so not changed.
struct StandInProfileEdit: Decodable {
    var name: String?
    var bio: String?
    var blog: String?
    var location: String?
    var company: String?
    var twitterUsername: String?
    var hireable: Bool?

    enum CodingKeys: String, CodingKey {
        case name, bio, blog, location, company, hireable
        case twitterUsername = "twitter_username"
    }

    func apply(to profile: inout StandInUserProfile, now: Int) {
        (profile.name, profile.bio) = (name ?? profile.name, bio ?? profile.bio)
        (profile.blog, profile.location) = (blog ?? profile.blog, location ?? profile.location)
        (profile.company, profile.hireable) = (company ?? profile.company, hireable ?? profile.hireable)
        profile.twitterUsername = twitterUsername ?? profile.twitterUsername
        profile.updatedAt = now
    }
}

extension StandInRouteRequest {
    /// `PATCH /user`: answers the private profile as it now is. A body that is not JSON is 400; a field of the wrong
    /// type is 422, naming it; keys GitHub does not document are ignored, as GitHub ignores them.
    func editProfile() -> StandInHTTPResponse {
        asSignedIn(withOneOf: ["user"]) { signedIn in
            let edit: StandInProfileEdit
            do {
                edit = try JSONDecoder().decode(StandInProfileEdit.self, from: Data(request.body))
            } catch DecodingError.typeMismatch(_, let context) {
                let key = context.codingPath.first?.stringValue ?? "body"
                return refusal(
                    422, "Invalid request.\n\nFor 'properties/\(key)', the value is not of the documented type.")
            } catch {
                return refusal(400, "Problems parsing JSON")
            }
            followGraph.record(edit, for: signedIn, now: now)
            let profile = followGraph.profile(of: signedIn)
            return StandInHTTPResponse(status: 200, body: signedIn.userJSONBytes(profile, privateKeys: true))
        }
    }

    /// `GET /users/{username}` and `/user/{account_id}`, or with `signedIn` `GET /user`, whose private form GitHub
    /// shows only to tokens with `user` or `read:user`.
    func profile(signedIn: Bool) -> StandInHTTPResponse {
        about(signedIn: signedIn) { user in
            let profile = followGraph.profile(of: user)
            let scopes = caller.scopes ?? []
            let privateKeys = signedIn && (scopes.contains("user") || scopes.contains("read:user"))
            var response = StandInHTTPResponse(status: 200, body: user.userJSONBytes(profile, privateKeys: privateKeys))
            response.setHeader("Last-Modified", UTCTimestamp.httpDate(profile.updatedAt))
            return response
        }
    }
}
