import JSONBytes

extension StandInUser {
    /// The keys `GET /user` adds to the public profile, in their order (`private_gists` … `plan`): GitHub's documented
    /// example's values (`Bodies/users-get-authenticated.json`), the same for every account.
    static let privateKeys: [UInt8] = {
        let body = StandInRecordedHandler.body(named: "users-get-authenticated") ?? []
        var bytes: [UInt8] = []
        let members = ((try? JSONText.objectMembers(body)) ?? [:]).sorted { $0.value.lowerBound < $1.value.lowerBound }
        for (key, range) in members.drop(while: { $0.key != "private_gists" }) {
            bytes += Array(",\"\(key)\":".utf8)
            JSONText.compact(body[range], into: &bytes)
        }
        return bytes
    }()

    /// The `private-user` object of `GET /user`: the public profile, then the example's private keys.
    /// `followCounts` and `edit` as for `publicUserJSONBytes(followCounts:edit:)`.
    package func privateUserJSONBytes(followCounts: StandInFollowCounts? = nil, edit: StandInProfileEdit? = nil)
        -> [UInt8]
    {
        var writer = JSONByteWriter(reservingCapacity: 1_900)
        writePublicUserFields(into: &writer, followCounts: followCounts, edit: edit)
        writer.bytes += Self.privateKeys
        writer.raw("}")
        return writer.bytes
    }
}
