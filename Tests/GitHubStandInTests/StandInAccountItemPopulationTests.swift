import Foundation
import Testing

@testable import GitHubStandIn

/// Reads an OpenSSH public key's blob the way `ssh-keygen -l` does and says what it is, or nil when it is not a
/// well-formed key: base64 that decodes, an algorithm name matching the text's, each field length-prefixed and
/// nothing left over.
private func sshKeyDescription(_ text: String) -> String? {
    let parts = text.split(separator: " ")
    guard parts.count == 2, let blob = Data(base64Encoded: String(parts[1])).map(Array.init) else {
        return nil
    }
    var offset = 0
    func field() -> [UInt8]? {
        guard offset + 4 <= blob.count else {
            return nil
        }
        let length = blob[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        offset += 4
        guard offset + length <= blob.count else {
            return nil
        }
        defer { offset += length }
        return Array(blob[offset..<offset + length])
    }
    guard let name = field().map({ String(decoding: $0, as: UTF8.self) }), name == parts[0] else {
        return nil
    }
    var description: String
    switch name {
    case "ssh-ed25519":
        guard field()?.count == 32 else {
            return nil
        }
        description = "ED25519"
    case "sk-ssh-ed25519@openssh.com":
        guard field()?.count == 32, let application = field(), application.starts(with: Array("ssh:".utf8)) else {
            return nil
        }
        description = "ED25519-SK"
    case "ssh-rsa":
        // mpints: e, then n with a zero byte ahead of a set top bit.
        guard let exponent = field(), exponent == [0x01, 0x00, 0x01], let modulus = field(), modulus.first == 0,
            modulus.count > 1, modulus[1] & 0x80 != 0, modulus.last.map({ $0 & 1 == 1 }) == true
        else {
            return nil
        }
        description = "RSA-\((modulus.count - 1) * 8)"
    default:
        return nil
    }
    return offset == blob.count ? description : nil
}

@Suite struct StandInAccountItemPopulationTests {
    @Test func manyItemAccountsAreNamedAndHoldSeveralPagesOfAHundred() throws {
        let population = StandInPopulation(userCount: 1_000)
        func user(_ login: String) throws -> StandInUser {
            try #require(population.user(login: login))
        }
        #expect(StandInPopulation.manyKeysLogin == "RapidFalcon31")
        #expect(population.keys(of: try user(StandInPopulation.manyKeysLogin)).count >= 250)
        #expect(population.organizations(of: try user(StandInPopulation.manyOrganizationsLogin)).count >= 150)
        #expect(population.starred(by: try user(StandInPopulation.manyStarsLogin)).count >= 350)
        #expect(population.gists(of: try user(StandInPopulation.manyGistsLogin)).count >= 120)
        #expect(population.publicEvents(of: try user(StandInPopulation.manyEventsLogin)).count > 300)
        let named: Set = [
            StandInPopulation.manyKeysLogin, StandInPopulation.manyOrganizationsLogin,
            StandInPopulation.manyStarsLogin, StandInPopulation.manyGistsLogin, StandInPopulation.manyEventsLogin,
        ]
        #expect(named.count == 5)
        // Everybody else stays within one page of 100 for every resource, so the named accounts are the only ones.
        for account in population.users where !named.contains(account.login) {
            let sizes = [
                population.keys(of: account).count, population.signingKeys(of: account).count,
                population.gpgKeys(of: account).count, population.socialAccounts(of: account).count,
                population.organizations(of: account).count, population.starred(by: account).count,
                population.gists(of: account).count, population.publicEvents(of: account).count,
            ]
            #expect(sizes.allSatisfy { $0 < 100 }, "\(account.login): \(sizes)")
        }
    }

    @Test func mostAccountsHaveAFewItemsOrNoneAndOrganizationsAndBotsHoldNoPersonalItems() {
        let population = StandInPopulation(userCount: 400)
        var empty = 0
        var some = 0
        for account in population.users {
            let keys = population.keys(of: account).count
            if keys == 0 {
                empty += 1
            } else {
                some += 1
            }
            if account.type != "User" {
                #expect(keys == 0 && population.starred(by: account).isEmpty, "\(account.login)")
                #expect(population.publicEvents(of: account).isEmpty && population.organizations(of: account).isEmpty)
                #expect(population.gpgKeys(of: account).isEmpty && population.signingKeys(of: account).isEmpty)
            }
            // Gists match the profile for everyone, Organizations included.
            #expect(population.gists(of: account).count == account.profile.publicGists, "\(account.login)")
        }
        #expect(empty > 50 && some > 50)
    }

    @Test func everyGeneratedSSHKeyIsAWellFormedBlobOfItsAdvertisedType() {
        let population = StandInPopulation(userCount: 500)
        var kinds: [String: Int] = [:]
        var ids = Set<Int>()
        for account in population.users
        where account.ordinal != 1
            && account.login != StandInPopulation.malformedKeysLogin
        {
            for key in population.keys(of: account)
                + population.signingKeys(of: account).map({
                    StandInPublicKey(id: $0.id, key: $0.key)
                })
            {
                let description = sshKeyDescription(key.key)
                #expect(description != nil, "\(account.login): \(key.key)")
                kinds[description ?? "invalid", default: 0] += 1
                #expect(ids.insert(key.id).inserted)
            }
        }
        #expect(Set(kinds.keys) == ["ED25519", "ED25519-SK", "RSA-2048", "RSA-3072", "RSA-4096"])
    }

    @Test func theMalformedKeysAccountMixesBrokenKeysWithValidOnes() throws {
        let population = StandInPopulation(userCount: 100)
        let account = try #require(population.user(login: StandInPopulation.malformedKeysLogin))
        let keys = population.keys(of: account).map(\.key)
        #expect(keys.map { sshKeyDescription($0) } == ["ED25519", nil, nil, nil, nil, "RSA-3072"])
        #expect(keys[1] == "ssh-rsa AAA...")
        // Each broken key is broken differently: not base64, a short blob, a blob of another type.
        #expect(Data(base64Encoded: String(keys[2].split(separator: " ")[1])) == nil)
        #expect(Data(base64Encoded: String(keys[3].split(separator: " ")[1]))?.count == 35)
        #expect(sshKeyDescription("ssh-ed25519 " + keys[4].split(separator: " ")[1]) == "ED25519")
        // And octocat's only key is the example's malformed one.
        #expect(population.keys(of: population.users[0]).map(\.key) == ["ssh-rsa AAA..."])
    }

    @Test func sha1MatchesFIPSVectorsAndGPGKeyIdsMatchWhatGPGComputes() throws {
        // FIPS 180-4 examples.
        #expect(
            StandInHex.lowercase(StandInSHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(StandInHex.lowercase(StandInSHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(
            StandInHex.lowercase(
                StandInSHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        let population = StandInPopulation(userCount: 100)
        let tabby = try #require(population.user(login: "tabby-newline"))
        let key = try #require(population.gpgKeys(of: tabby).first)
        // `gpg --list-packets` printed these key ids and accepted this armour checksum for this key.
        #expect(key.keyID == "4C6AE8E26FA74B93")
        #expect(key.subkeys.map(\.keyID) == ["F5126CCD96C10FCD"])
        #expect(key.rawKey?.contains("\n=7jN2\n") == true)
    }

    @Test func gpgPublicKeysAreVersion4RSAPacketsAndTheArmourHoldsBoth() throws {
        let population = StandInPopulation(userCount: 300)
        let keys = population.users.dropFirst().flatMap { population.gpgKeys(of: $0) }
        #expect(keys.count > 40)
        for key in keys {
            for (packetKey, tag) in [(key, UInt8(0xC6)), (try #require(key.subkeys.first), UInt8(0xCE))] {
                let packet = try #require(Data(base64Encoded: packetKey.publicKey).map(Array.init))
                // New-format tag, two-octet length 269, version 4, RSA, a 2048-bit modulus, e = 65537.
                #expect(Array(packet.prefix(3)) == [tag, 0xC0, 0x4D] && packet.count == 272)
                #expect(packet[3] == 4 && packet[8] == 1 && packet[9] == 0x08 && packet[10] == 0x00)
                #expect(Array(packet.suffix(5)) == [0x00, 0x11, 0x01, 0x00, 0x01])
                #expect(packetKey.keyID == OpenPGPPacket.keyID(ofPacket: packet))
            }
            #expect(key.subkeys.first?.primaryKeyID == key.id)
            guard let raw = key.rawKey else {
                continue
            }
            let lines = raw.split(separator: "\n")
            #expect(
                lines.first == "-----BEGIN PGP PUBLIC KEY BLOCK-----"
                    && lines.last == "-----END PGP PUBLIC KEY BLOCK-----")
            let body = lines.dropFirst().dropLast().filter { !$0.hasPrefix("=") }.joined()
            #expect(
                Data(base64Encoded: body) == Data(base64Encoded: key.publicKey)! + Data(
                    base64Encoded: key.subkeys[0].publicKey)!)
        }
    }

    @Test func starsEventsAndGistsAreDistinctOrderedAndDeterministic() throws {
        let population = StandInPopulation(userCount: 300)
        let again = StandInPopulation(userCount: 300)
        var eventIDs = Set<String>()
        var gistIDs = Set<String>()
        for account in population.users {
            let stars = population.starred(by: account)
            #expect(Set(stars.map(\.repository.id)).count == stars.count, "\(account.login)")
            if account.ordinal != 1 {
                #expect(stars.allSatisfy { $0.starredAt > $0.repository.createdAt })
            }
            let events = population.publicEvents(of: account)
            if account.ordinal != 1 {
                // Newest first, and ids grow with time.
                #expect(zip(events, events.dropFirst()).allSatisfy { $0.createdAt > $1.createdAt })
                #expect(zip(events, events.dropFirst()).allSatisfy { Int($0.id)! > Int($1.id)! })
            }
            #expect(events.allSatisfy { eventIDs.insert($0.id).inserted })
            #expect(population.gists(of: account).allSatisfy { gistIDs.insert($0.id).inserted })
            #expect(population.starred(by: account) == again.starred(by: account))
            #expect(population.publicEvents(of: account) == again.publicEvents(of: account))
            #expect(population.gpgKeys(of: account) == again.gpgKeys(of: account))
        }
        #expect(eventIDs.count > 3_000 && gistIDs.count > 3_000)
    }

    @Test func iso8601ParsingInvertsTheFormatter() {
        for seconds in [0, 951_782_400, 1_200_285_215, 1_709_164_800, 4_102_444_799] {
            #expect(UTCTimestamp.epochSeconds(iso8601: UTCTimestamp.iso8601(seconds)) == seconds)
        }
        #expect(UTCTimestamp.epochSeconds(iso8601: "2024-02-29") == 1_709_164_800)
        for bad in ["2023-02-29", "2024-13-01", "2024-01-01T24:00:00Z", "2024-01-01T00:00:00+01:00", "yesterday", ""] {
            #expect(UTCTimestamp.epochSeconds(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test func theHelpListsTheManyItemAccountsAndTheTokenRule() {
        // The runner's help is built from these, so a rename reaches it; the route list comes from the table.
        #expect(
            StandInServer.servedRoutes.contains("GET /users/{username}/events/public, /user/{account_id}/events/public")
        )
        #expect(StandInServer.servedRoutes.contains("GET /user"))
        #expect(StandInTokens.token(for: "octocat") == "gho_octocat")
    }
}
