// octocat's items below are GitHub's documented examples `users-list-public-keys-for-user.json` (`key-simple-items`,
// the 200 of `GET /users/{username}/keys`) and `users-list-ssh-signing-keys-for-user.json` (`ssh-signing-key-items`,
// the 200 of `GET /users/{username}/ssh_signing_keys`), from GitHub's OpenAPI description,
// github/rest-api-description (MIT License, Copyright (c) 2020 GitHub). Every other key is synthetic.

/// One entry of `GET /users/{username}/keys`: GitHub's `key-simple`, which lists only `id` and `key`.
package struct StandInPublicKey: Sendable, Equatable, StandInRecord {
    package let id: Int
    /// The key as GitHub lists it: the type, a space and the base64 blob, without the comment the user uploaded.
    package let key: String

    package func write(into writer: inout JSONByteWriter) {
        writer.raw("{\"id\":")
        writer.integer(id)
        writer.raw(",\"key\":")
        writer.string(key)
        writer.raw("}")
    }
}

/// One entry of `GET /users/{username}/ssh_signing_keys`.
package struct StandInSigningKey: Sendable, Equatable, StandInRecord {
    package let id: Int
    package let key: String
    package let title: String
    /// Unix seconds.
    package let createdAt: Int

    package func write(into writer: inout JSONByteWriter) {
        writer.raw("{\"id\":")
        writer.integer(id)
        writer.raw(",\"key\":")
        writer.string(key)
        writer.raw(",\"title\":")
        writer.string(title)
        writer.raw(",\"created_at\":")
        writer.string(UTCTimestamp.iso8601(createdAt))
        writer.raw("}")
    }
}

/// The kinds of SSH public key the population holds, in the OpenSSH wire format of RFC 4253 section 6.6 (RSA),
/// RFC 8709 (Ed25519) and OpenSSH's PROTOCOL.u2f (security keys).
package enum StandInSSHKeyKind: String, Sendable, CaseIterable {
    case ed25519 = "ssh-ed25519"
    case rsa2048
    case rsa3072
    case rsa4096
    /// A FIDO security key (`sk-ssh-ed25519@openssh.com`), whose blob also names the relying party.
    case securityKeyEd25519 = "sk-ssh-ed25519@openssh.com"

    /// The algorithm name that starts both the text form and the blob.
    package var algorithm: String {
        switch self {
        case .rsa2048, .rsa3072, .rsa4096:
            "ssh-rsa"
        case .ed25519, .securityKeyEd25519:
            rawValue
        }
    }

    /// The blob: length-prefixed algorithm name, then the key's own fields.
    ///
    /// The key bytes come from `random`: an Ed25519 public key is any 32 bytes, and an RSA modulus is given its top
    /// bit (so it has the advertised size) and its low bit (a product of odd primes is odd). Nothing checks that
    /// such a modulus factors, so the blob parses and fingerprints exactly like a real key.
    func blob(random: inout StandInSeededBytes) -> [UInt8] {
        var blob = StandInSSHWire.string(Array(algorithm.utf8))
        switch self {
        case .ed25519:
            blob += StandInSSHWire.string(random.bytes(32))
        case .securityKeyEd25519:
            blob += StandInSSHWire.string(random.bytes(32))
            blob += StandInSSHWire.string(Array("ssh:".utf8))
        case .rsa2048, .rsa3072, .rsa4096:
            let bits = self == .rsa2048 ? 2_048 : self == .rsa3072 ? 3_072 : 4_096
            var modulus = random.bytes(bits / 8)
            modulus[0] |= 0x80
            modulus[modulus.count - 1] |= 0x01
            // e = 65537; mpints are big-endian two's complement, so a modulus with its top bit set needs a 0 first.
            blob += StandInSSHWire.string([0x01, 0x00, 0x01])
            blob += StandInSSHWire.string([0x00] + modulus)
        }
        return blob
    }

    /// `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI…`.
    func text(random: inout StandInSeededBytes) -> String {
        algorithm + " " + Base64Text.encode(blob(random: &random))
    }
}

/// RFC 4251 section 5 encodings.
enum StandInSSHWire {
    /// `string`: a four-byte big-endian length, then the bytes.
    static func string(_ bytes: [UInt8]) -> [UInt8] {
        let count = UInt32(bytes.count)
        return [
            UInt8(truncatingIfNeeded: count >> 24), UInt8(truncatingIfNeeded: count >> 16),
            UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count),
        ] + bytes
    }
}

/// Which keys each account has.
enum StandInSSHKeys {
    /// Ids are `base + (ordinal - 1) * 1_000 + index`: unique because nobody has 1,000 keys, and far from the
    /// fixture's small ids.
    static let publicKeyIDBase = 1_000_000_000
    static let signingKeyIDBase = 2_000_000_000

    /// GitHub's example key is itself malformed (`AAA...` is not a blob), so octocat has one malformed key too.
    static let octocatPublicKeys = [StandInPublicKey(id: 1, key: "ssh-rsa AAA...")]

    /// GitHub's example puts base64 fragments where the key goes, which clients must survive as well.
    static let octocatSigningKeys = [
        StandInSigningKey(
            id: 2, key: "2Sg8iYjAxxmI2LvUXpJjkYrMxURPc8r+dB7TJyvv1234", title: "ssh-rsa AAAAB3NzaC1yc2EAAA",
            createdAt: 1_591_911_117),
        StandInSigningKey(
            id: 3, key: "2Sg8iYjAxxmI2LvUXpJjkYrMxURPc8r+dB7TJy931234", title: "ssh-rsa AAAAB3NzaC1yc2EAAB",
            createdAt: 1_594_503_117),
    ]

    private static let publicKeySalt: UInt64 = 0x6B65_7973
    private static let signingKeySalt: UInt64 = 0x7369_676E

    static func publicKeyCount(of user: StandInUser) -> Int {
        switch user.ordinal {
        case 1:
            return octocatPublicKeys.count
        case StandInSurfaceAccounts.manyKeysOrdinal:
            return StandInSurfaceAccounts.manyKeysCount
        case StandInSurfaceAccounts.malformedKeysOrdinal:
            return 6
        default:
            // Organizations and apps cannot hold SSH keys on GitHub.
            return user.type == "User" ? user.ordinal % 4 : 0
        }
    }

    static func publicKeys(of user: StandInUser) -> [StandInPublicKey] {
        if user.ordinal == 1 {
            return octocatPublicKeys
        }
        return (0..<publicKeyCount(of: user)).map { index in
            let id = publicKeyIDBase + (user.ordinal - 1) * 1_000 + index
            var random = StandInSeededBytes(seed: id, salt: publicKeySalt)
            if user.ordinal == StandInSurfaceAccounts.malformedKeysOrdinal {
                return StandInPublicKey(id: id, key: malformedAccountKey(index, random: &random))
            }
            return StandInPublicKey(id: id, key: randomKind(&random).text(random: &random))
        }
    }

    /// Mostly Ed25519, as new keys on GitHub are, with every RSA size and a security key in the mix.
    private static func randomKind(_ random: inout StandInSeededBytes) -> StandInSSHKeyKind {
        switch random.next(below: 10) {
        case 0..<6:
            .ed25519
        case 6:
            .rsa2048
        case 7:
            .rsa3072
        case 8:
            .rsa4096
        default:
            .securityKeyEd25519
        }
    }

    /// brave-badger-36's keys, valid and malformed in turn: (0) valid Ed25519, (1) GitHub's own `ssh-rsa AAA...`,
    /// (2) text that is not base64, (3) valid base64 whose blob is cut short of its declared length, (4) a valid
    /// Ed25519 blob labelled `ssh-rsa`, (5) valid RSA.
    static func malformedAccountKey(_ index: Int, random: inout StandInSeededBytes) -> String {
        switch index {
        case 0:
            return StandInSSHKeyKind.ed25519.text(random: &random)
        case 1:
            return "ssh-rsa AAA..."
        case 2:
            return "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI#not*base64#"
        case 3:
            // 35 of the blob's 51 bytes: the key's length prefix promises 32 bytes and only 16 follow.
            let blob = StandInSSHKeyKind.ed25519.blob(random: &random)
            return "ssh-ed25519 " + Base64Text.encode(Array(blob.dropLast(16)))
        case 4:
            return "ssh-rsa " + Base64Text.encode(StandInSSHKeyKind.ed25519.blob(random: &random))
        default:
            return StandInSSHKeyKind.rsa3072.text(random: &random)
        }
    }

    static func signingKeyCount(of user: StandInUser) -> Int {
        if user.ordinal == 1 {
            return octocatSigningKeys.count
        }
        return user.type == "User" ? [0, 1, 0, 2, 0, 0, 1][user.ordinal % 7] : 0
    }

    private static let signingKeyTitles = [
        "MacBook Pro", "YubiKey 5C NFC", "work laptop", "ThinkPad — commit signing", "CI release signing",
        "開発用ノートPC",
    ]

    static func signingKeys(of user: StandInUser) -> [StandInSigningKey] {
        if user.ordinal == 1 {
            return octocatSigningKeys
        }
        return (0..<signingKeyCount(of: user)).map { index in
            let id = signingKeyIDBase + (user.ordinal - 1) * 1_000 + index
            var random = StandInSeededBytes(seed: id, salt: signingKeySalt)
            let kind: StandInSSHKeyKind = random.next(below: 3) == 0 ? .securityKeyEd25519 : .ed25519
            // SSH commit signing arrived on GitHub in August 2022; keys date from then on, in upload order.
            let createdAt = 1_661_990_400 + index * 40_000_000 + random.next(below: 30_000_000)
            let title = signingKeyTitles[random.next(below: signingKeyTitles.count)]
            return StandInSigningKey(id: id, key: kind.text(random: &random), title: title, createdAt: createdAt)
        }
    }
}

extension StandInPopulation {
    /// `GET /users/{username}/keys` in the order GitHub lists it (upload order); empty for Organizations and bots.
    package func keys(of user: StandInUser) -> [StandInPublicKey] {
        StandInSSHKeys.publicKeys(of: user)
    }

    /// `GET /users/{username}/ssh_signing_keys`, oldest first.
    package func signingKeys(of user: StandInUser) -> [StandInSigningKey] {
        StandInSSHKeys.signingKeys(of: user)
    }
}
