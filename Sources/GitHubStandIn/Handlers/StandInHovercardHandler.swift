/// `GET /users/{username}/hovercard`: what GitHub's hovercard says of an account, for a caller with a token (401
/// without). Deterministic, from the account's profile and organizations: where it lives, which organizations it
/// is a member of, and, asked about one of its own repositories (`subject_type=repository`, `subject_id`), that it
/// owns it. `subject_type` and `subject_id` go together, and the type is one GitHub documents, else 422.
struct StandInHovercardHandler: StandInHandler {
    static let subjectTypes = ["organization", "repository", "issue", "pull_request"]

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard request.signedInAccount != nil else {
            return request.signInRefusal()
        }
        guard let account = request.account else {
            return StandInErrorBody.notFound(documentationURL: request.documentation)
        }
        let type = request.query["subject_type"]
        let id = request.query["subject_id"]
        guard (type == nil) == (id == nil), type.map(Self.subjectTypes.contains) ?? true else {
            return StandInErrorBody.response(422, message: "Validation Failed", documentationURL: request.documentation)
        }
        let subject: (type: String, id: String)? = if let type, let id { (type, id) } else { nil }
        var writer = JSONByteWriter(reservingCapacity: 256)
        writer.raw("{\"contexts\":[")
        for (position, context) in contexts(of: account, subject: subject, request).enumerated() {
            writer.raw(position == 0 ? "{\"message\":" : ",{\"message\":")
            writer.string(context.message)
            writer.raw(",\"octicon\":")
            writer.string(context.octicon)
            writer.raw("}")
        }
        writer.raw("]}")
        return StandInHTTPResponse(status: 200, body: writer.bytes)
    }

    private func contexts(
        of account: StandInUser, subject: (type: String, id: String)?, _ request: StandInRouteRequest
    ) -> [(message: String, octicon: String)] {
        var contexts: [(message: String, octicon: String)] = []
        if let subject, subject.type == "repository", let id = Int(subject.id),
            request.population.repositories(ofUserID: account.id).contains(where: { $0.id == id })
        {
            contexts.append(("Owns this repository", "repo"))
        }
        let organizations = request.population.organizations(of: account).map(\.login)
        if let first = organizations.first {
            let more = organizations.count - 1
            contexts.append(("Member of " + first + (more > 0 ? " and \(more) more" : ""), "organization"))
        }
        if let location = account.profile.location {
            contexts.append(("Lives in " + location, "location"))
        }
        return contexts
    }
}
