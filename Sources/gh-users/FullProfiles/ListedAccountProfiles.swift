import AtomicCore
import Data
import Domain
import JSONBytes

extension ProfileStage where Item == Record {
    /// Records that carry an account under `key` (a stargazer's `{"starred_at", "user"}`): under `--full` each is
    /// written as the account's profile, fetched as `accounts(_:)` fetches a listed account (REST, or GraphQL in
    /// batches with `--via graphql`), with the record's own keys `kept` (`starred_at`) added at the top level of
    /// the profile, after its own keys. A record whose account is gone is left out, as a listed account is.
    static func accounts(
        _ options: WritableKeyPath<Options, ProfileOptions> & Sendable, under key: String, keeping kept: [String]
    ) -> Self {
        let accounts = ProfileStage<Options, User>.accounts(options)
        return ProfileStage(
            options: options,
            columns: { context in
                let keys = context.format == .table ? ["login", "name", "location", "followers"] : FieldCatalog.profile
                return keys.map { Column($0.uppercased(), path: [$0], shrink: $0 == "login" ? .last : nil) }
                    + kept.map { Column.time($0.uppercased(), $0, context) }
            },
            expansion: { chosen, github in
                let expansion = accounts.expansion(chosen, github)
                return ItemExpansion(
                    batchSize: expansion.batchSize, concurrency: expansion.concurrency,
                    expand: { records in
                        var users: [User] = []
                        var unread: [Int: DomainError] = [:]
                        for (index, record) in records.enumerated() {
                            do throws(DomainError) {
                                let bytes = JSONText.value(at: [key], in: record.raw.bytes) ?? []
                                users.append(try GitHubEndpoints.account(bytes, in: "a listed record's \(key)"))
                            } catch {
                                unread[index] = error
                            }
                        }
                        var profiles = await expansion.expand(users).makeIterator()
                        return records.indices.map { index in
                            if let error = unread[index] { return .failure(error) }
                            return (profiles.next() ?? .success(nil)).map { profile in
                                profile.map { adding(kept, of: records[index], to: $0) }
                            }
                        }
                    },
                    closingNotes: expansion.closingNotes)
            })
    }

    /// The profile's bytes with the record's `kept` keys appended, as the record sent their values.
    private static func adding(_ kept: [String], of record: Record, to profile: User) -> Record {
        var bytes = profile.raw.bytes
        guard bytes.last == UInt8(ascii: "}") else { return Record(id: profile.id, raw: profile.raw) }
        bytes.removeLast()
        for name in kept {
            guard let value = JSONText.value(at: [name], in: record.raw.bytes) else { continue }
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            bytes += JSONValue.string(name).bytes
            bytes.append(UInt8(ascii: ":"))
            bytes += value
        }
        bytes.append(UInt8(ascii: "}"))
        return Record(id: profile.id, raw: RawJSON(bytes: bytes))
    }
}
