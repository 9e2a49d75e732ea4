/// `GET /user/emails`: the signed-in account's addresses, for a token with `user:email` or `user` (else GitHub's
/// refusal of a missing scope). Deterministic: the profile's public address, or a private one made from the
/// login, as the primary; then the account's no-reply address, which GitHub gives every account.
struct StandInEmailsHandler: StandInHandler {
    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let signedIn = request.signedInAccount else {
            return request.signInRefusal()
        }
        if let refusal = request.scopeRefusal(unlessOneOf: ["user:email"]) { return refusal }
        return request.pagedList(signedIn.emails, path: "/user/emails", bytesPerItem: 120) { $0.write(into: &$1) }
    }
}

/// One address of `GET /user/emails`, keys in the order of GitHub's documented example.
package struct StandInEmail: StandInRecord, Sendable, Equatable {
    package let email: String
    package let primary: Bool
    package let verified: Bool
    /// `public` or `private` for the primary address; null for the others.
    package let visibility: String?

    package func write(into writer: inout JSONByteWriter) {
        writer.raw("{\"email\":")
        writer.string(email)
        writer.raw(",\"verified\":")
        writer.boolean(verified)
        writer.raw(",\"primary\":")
        writer.boolean(primary)
        writer.raw(",\"visibility\":")
        writer.optionalString(visibility)
        writer.raw("}")
    }
}

extension StandInUser {
    /// The account's addresses as `GET /user/emails` lists them: the primary first.
    package var emails: [StandInEmail] {
        let published = profile.email
        return [
            StandInEmail(
                email: published ?? "\(login.lowercased())@example.com", primary: true, verified: true,
                visibility: published == nil ? "private" : "public"),
            StandInEmail(
                email: "\(id)+\(login)@users.noreply.github.com", primary: false, verified: true, visibility: nil),
        ]
    }
}
