import Foundation
import Testing

/// One answer a case expects to be asked for, and GitHub's reply to it.
struct StubbedAnswer: Sendable {
    let request: String
    let status: Int
    let headers: [(String, String)]
    let body: String?

    init(_ request: String, status: Int, headers: [(String, String)] = [], body: String? = nil) {
        self.request = request
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// GitHub's 403 to a token that has only `read:user` where an endpoint accepts `accepted`.
    static func scopeRefusal(_ request: String, accepted: String) -> StubbedAnswer {
        StubbedAnswer(
            request, status: 403, headers: [("X-OAuth-Scopes", "read:user"), ("X-Accepted-OAuth-Scopes", accepted)],
            body: "error-403-scope")
    }
}

extension CommandHarness {
    /// Registers `answer` as the reply to the request it names.
    func expect(_ answer: StubbedAnswer) {
        expect(answer.request, status: answer.status, headers: answer.headers, body: answer.body)
    }
}

/// One run of a command against the answers it must ask for, in order: its exit status, stdout exactly, and what
/// stderr says (empty: nothing).
struct AnsweredCase: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    let token: Bool
    let answers: [StubbedAnswer]
    let status: Int32
    let out: String
    let err: String

    init(
        _ command: String, token: Bool = true, answers: [StubbedAnswer] = [], status: Int32, out: String = "",
        err: String = ""
    ) {
        arguments = command.split(separator: " ").map(String.init)
        self.token = token
        self.answers = answers
        self.status = status
        self.out = out
        self.err = err
    }

    var testDescription: String { "gh-users " + arguments.joined(separator: " ") }

    /// Runs the case; the harness fails it if a request it names is not sent, or another one is.
    func run(sourceLocation: SourceLocation = #_sourceLocation) async {
        let harness = token ? CommandHarness.signedIn() : CommandHarness()
        answers.forEach(harness.expect)
        let run = await harness.run(arguments, sourceLocation: sourceLocation)
        #expect(run.status == status, "\(run.err)", sourceLocation: sourceLocation)
        #expect(run.out == out, sourceLocation: sourceLocation)
        #expect(err.isEmpty ? run.err.isEmpty : run.err.contains(err), "\(run.err)", sourceLocation: sourceLocation)
    }
}
