import Domain
import Foundation
import JSONBytes

/// Every row of the endpoint table with no behaviour of its own, served from `Bodies/<operation id>.json` (its
/// `NOTICE.md` gives each body's source): a new list needs its row and its body, and no code. What the row says
/// (its account, token, scope, cap, media type) is what the stand-in does.
struct StandInRecordedHandler: StandInHandler {
    let endpoint: Endpoint
    let body: [UInt8]

    init?(_ endpoint: Endpoint) {
        guard endpoint.method == .get, let body = Self.body(named: endpoint.operationID) else { return nil }
        self.endpoint = endpoint
        self.body = body
    }

    static func body(named operationID: String) -> [UInt8]? {
        let name = operationID.replacing("/", with: "-") + ".json"
        guard let folder = Bundle.module.url(forResource: "Bodies", withExtension: nil) else { return nil }
        return try? Array(Data(contentsOf: folder.appendingPathComponent(name)))
    }

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        if endpoint.needsToken || endpoint.path.hasPrefix("/user/"), request.signedInAccount == nil {
            return request.signInRefusal()
        }
        if endpoint.isAccountScoped, request.account == nil { return request.notFound }
        let world = request.context.world.current
        let unknownOrganization = request.parameters["org"].map { world.organization($0) == nil } ?? false
        let owner = request.parameters["owner"] ?? ""
        if unknownOrganization || request.parameters["repo"].map({ world.repository(owner, $0) == nil }) ?? false {
            return request.notFound
        }
        if let scope = endpoint.scope, let refusal = request.scopeRefusal(unlessOneOf: [scope]) { return refusal }
        guard let records = try? JSONText.arrayElements(body).map({ Array(body[$0]) }) else {
            return StandInHTTPResponse(status: 200, body: body)
        }
        return request.pagedRecords(records, cap: endpoint.itemCap)
    }
}
