import Foundation

/// The accounts each account blocks, in the order it blocked them.
final class StandInBlockList: @unchecked Sendable {
    private let lock = NSLock()
    private var blocked: [Int: [StandInUser]] = [:]

    func blocked(by owner: StandInUser) -> [StandInUser] {
        lock.withLock { blocked[owner.ordinal] ?? [] }
    }

    func block(_ user: StandInUser, by owner: StandInUser) {
        lock.withLock {
            if blocked[owner.ordinal]?.contains(where: { $0.ordinal == user.ordinal }) != true {
                blocked[owner.ordinal, default: []].append(user)
            }
        }
    }

    func unblock(_ user: StandInUser, by owner: StandInUser) {
        lock.withLock { blocked[owner.ordinal]?.removeAll { $0.ordinal == user.ordinal } }
    }
}

/// `GET /user/blocks`, `PUT` and `DELETE /user/blocks/{username}`. A write is 204 whether or not anything changed;
/// blocking oneself or an organization is 422; a block ends any follow between the two, as on GitHub.
struct StandInBlocksHandler: StandInHandler {
    enum Operation: Sendable {
        case list, block, unblock
    }

    let operation: Operation
    let blocks: StandInBlockList

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        request.asSignedIn(withOneOf: ["user"]) { signedIn in
            guard operation != .list else {
                return request.pagedUsers(blocks.blocked(by: signedIn), linkPath: "/user/blocks")
            }
            guard let login = request.parameters["username"], let other = request.population.user(login: login)
            else {
                return StandInErrorBody.notFound(documentationURL: request.documentation)
            }
            if operation == .unblock {
                blocks.unblock(other, by: signedIn)
            } else if other.ordinal == signedIn.ordinal || other.type == "Organization" {
                return StandInErrorBody.response(
                    422, message: "Validation Failed", documentationURL: request.documentation)
            } else {
                blocks.block(other, by: signedIn)
                request.followGraph.unfollow(signedIn, other)
                request.followGraph.unfollow(other, signedIn)
            }
            return StandInHTTPResponse(status: 204)
        }
    }
}
