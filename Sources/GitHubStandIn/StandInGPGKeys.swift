// The `gpg-key` JSON below (key names, key order, which keys a subkey carries) and octocat's key are GitHub's
// documented example `users-list-gpg-keys-for-user.json` (`gpg-key-items`, the 200 of
// `GET /users/{username}/gpg_keys`), from GitHub's OpenAPI description, github/rest-api-description (MIT License,
// Copyright (c) 2020 GitHub). Every other key is synthetic.

/// One address a GPG key names, and whether GitHub verified it belongs to the account.
package struct StandInGPGEmail: Sendable, Equatable {
    package let email: String
    package let verified: Bool
}

/// One entry of `GET /users/{username}/gpg_keys`, or one of its `subkeys`.
package struct StandInGPGKey: Sendable, Equatable, StandInRecord {
    package let id: Int
    /// Primary keys only; subkeys have no name in GitHub's example.
    package let name: String?
    /// The example gives its primary key one, and each subkey its primary key's id; generated primary keys have
    /// null, as keys uploaded to GitHub do.
    package let primaryKeyID: Int?
    /// 16 uppercase hex digits.
    package let keyID: String
    /// The base64 OpenPGP public-key packet, without armour.
    package let publicKey: String
    package let emails: [StandInGPGEmail]
    package let subkeys: [StandInGPGKey]
    package let canSign: Bool
    package let canEncryptComms: Bool
    package let canEncryptStorage: Bool
    package let canCertify: Bool
    /// As GitHub writes it; the example uses a UTC offset (`2016-03-24T11:31:04-06:00`), generated keys use `Z`.
    package let createdAt: String
    package let expiresAt: String?
    package let revoked: Bool
    /// The armoured key as uploaded; null for some keys, as the schema allows. Primary keys only.
    package let rawKey: String?

    /// The primary key, as the list has it.
    package func write(into writer: inout JSONByteWriter) {
        write(into: &writer, isSubkey: false)
    }

    /// A subkey carries what the example's subkey carries: no name, no subkeys of its own, no raw key.
    func write(into writer: inout JSONByteWriter, isSubkey: Bool) {
        writer.raw("{\"id\":")
        writer.integer(id)
        if !isSubkey {
            writer.raw(",\"name\":")
            writer.optionalString(name)
        }
        writer.raw(",\"primary_key_id\":")
        if let primaryKeyID {
            writer.integer(primaryKeyID)
        } else {
            writer.null()
        }
        writer.raw(",\"key_id\":")
        writer.string(keyID)
        // GitHub's recorded answers put raw_key right after key_id (its OpenAPI example puts it last).
        if !isSubkey {
            writer.raw(",\"raw_key\":")
            writer.optionalString(rawKey)
        }
        writer.raw(",\"public_key\":")
        writer.string(publicKey)
        writer.raw(",\"emails\":[")
        for (position, email) in emails.enumerated() {
            writer.raw(position == 0 ? "{\"email\":" : ",{\"email\":")
            writer.string(email.email)
            writer.raw(",\"verified\":")
            writer.boolean(email.verified)
            writer.raw("}")
        }
        writer.raw("]")
        if !isSubkey {
            writer.raw(",\"subkeys\":[")
            for (position, subkey) in subkeys.enumerated() {
                if position > 0 {
                    writer.raw(",")
                }
                subkey.write(into: &writer, isSubkey: true)
            }
            writer.raw("]")
        }
        writer.raw(",\"can_sign\":")
        writer.boolean(canSign)
        writer.raw(",\"can_encrypt_comms\":")
        writer.boolean(canEncryptComms)
        writer.raw(",\"can_encrypt_storage\":")
        writer.boolean(canEncryptStorage)
        writer.raw(",\"can_certify\":")
        writer.boolean(canCertify)
        writer.raw(",\"created_at\":")
        writer.string(createdAt)
        writer.raw(",\"expires_at\":")
        writer.optionalString(expiresAt)
        writer.raw(",\"revoked\":")
        writer.boolean(revoked)
        writer.raw("}")
    }
}

enum StandInGPGKeys {
    /// Primary keys get even ids `base + (ordinal - 1) * 1_000 + 2 * index`, their subkey the odd id after.
    static let idBase = 3_000_000_000
    private static let salt: UInt64 = 0x6770_676B

    static let octocatKeys = [
        StandInGPGKey(
            id: 3, name: "Octocat's GPG Key", primaryKeyID: 2, keyID: "3262EFF25BA0D270", publicKey: "xsBNBFayYZ...",
            emails: [StandInGPGEmail(email: "octocat@users.noreply.github.com", verified: true)],
            subkeys: [
                StandInGPGKey(
                    id: 4, name: nil, primaryKeyID: 3, keyID: "4A595D4C72EE49C7", publicKey: "zsBNBFayYZ...",
                    emails: [], subkeys: [], canSign: false, canEncryptComms: true, canEncryptStorage: true,
                    canCertify: false, createdAt: "2016-03-24T11:31:04-06:00", expiresAt: "2016-03-24T11:31:04-07:00",
                    revoked: false, rawKey: nil)
            ],
            canSign: true, canEncryptComms: false, canEncryptStorage: false, canCertify: true,
            createdAt: "2016-03-24T11:31:04-06:00", expiresAt: "2016-03-24T11:31:04-07:00", revoked: false,
            rawKey: "string")
    ]

    static func count(of user: StandInUser) -> Int {
        if user.ordinal == 1 {
            return octocatKeys.count
        }
        guard user.type == "User" else {
            return 0
        }
        return user.ordinal % 6 == 0 ? 1 : user.ordinal % 10 == 4 ? 2 : 0
    }

    static func keys(of user: StandInUser) -> [StandInGPGKey] {
        if user.ordinal == 1 {
            return octocatKeys
        }
        let count = count(of: user)
        guard count > 0 else {
            return []
        }
        let profile = user.profile
        return (0..<count).map { index in
            let id = idBase + (user.ordinal - 1) * 1_000 + 2 * index
            var random = StandInSeededBytes(seed: id, salt: salt)
            // 2015-01-01 onwards, one key every couple of years.
            let created = 1_420_070_400 + index * 60_000_000 + random.next(below: 50_000_000)
            let expires: Int?
            switch random.next(below: 3) {
            case 0:
                expires = nil
            case 1:
                // Long expired, so clients have an expired key to show.
                expires = created + 2 * 31_536_000
            default:
                expires = created + 20 * 31_536_000
            }
            var emails = [StandInGPGEmail(email: "\(user.id)+\(user.login)@users.noreply.github.com", verified: true)]
            if let email = profile.email {
                emails.insert(StandInGPGEmail(email: email, verified: index == 0), at: 0)
            }
            let primaryPacket = OpenPGPPacket.rsaPublicKey(tag: 6, created: created, random: &random)
            let subkeyPacket = OpenPGPPacket.rsaPublicKey(tag: 14, created: created, random: &random)
            let subkey = StandInGPGKey(
                id: id + 1, name: nil, primaryKeyID: id, keyID: OpenPGPPacket.keyID(ofPacket: subkeyPacket),
                publicKey: Base64Text.encode(subkeyPacket), emails: [], subkeys: [], canSign: false,
                canEncryptComms: true, canEncryptStorage: true, canCertify: false,
                createdAt: UTCTimestamp.iso8601(created), expiresAt: expires.map(UTCTimestamp.iso8601), revoked: false,
                rawKey: nil)
            let hasRawKey = random.next(below: 4) != 0
            return StandInGPGKey(
                // The second key carries no name, as keys whose user id GitHub could not read do.
                id: id, name: index == 0 ? profile.name : nil, primaryKeyID: nil,
                keyID: OpenPGPPacket.keyID(ofPacket: primaryPacket), publicKey: Base64Text.encode(primaryPacket),
                emails: emails, subkeys: [subkey], canSign: true, canEncryptComms: false, canEncryptStorage: false,
                canCertify: true, createdAt: UTCTimestamp.iso8601(created),
                expiresAt: expires.map(UTCTimestamp.iso8601), revoked: index == 1,
                rawKey: hasRawKey ? OpenPGPPacket.armoredPublicKey(primaryPacket + subkeyPacket) : nil)
        }
    }
}

/// Just enough OpenPGP (RFC 4880) to make key material that parses: public-key packets and ASCII armour.
enum OpenPGPPacket {
    /// The key id GitHub shows for a packet from `rsaPublicKey`: the low 64 bits of the version 4 fingerprint,
    /// SHA-1 over 0x99, the two-byte body length and the body (RFC 4880 section 12.2), so `gpg` agrees with it.
    static func keyID(ofPacket packet: [UInt8]) -> String {
        let body = Array(packet.dropFirst(3))
        let fingerprint = StandInSHA1.digest(
            [0x99, UInt8(truncatingIfNeeded: body.count >> 8), UInt8(truncatingIfNeeded: body.count)] + body)
        return StandInHex.uppercase(Array(fingerprint.suffix(8)))
    }

    /// A version 4 RSA-2048 public-key packet (`tag` 6) or public-subkey packet (`tag` 14) in the new packet
    /// format, which is why GitHub's example values start `xsBN` and `zsBN`. The modulus is random bytes with the
    /// top and bottom bits set, which parses as a key but factors into nothing anyone knows.
    static func rsaPublicKey(tag: UInt8, created: Int, random: inout StandInSeededBytes) -> [UInt8] {
        var modulus = random.bytes(256)
        modulus[0] |= 0x80
        modulus[255] |= 0x01
        let time = UInt32(truncatingIfNeeded: created)
        var body: [UInt8] = [
            0x04, UInt8(truncatingIfNeeded: time >> 24), UInt8(truncatingIfNeeded: time >> 16),
            UInt8(truncatingIfNeeded: time >> 8), UInt8(truncatingIfNeeded: time), 0x01, 0x08, 0x00,
        ]
        body += modulus
        // The exponent 65537 as an MPI: 17 significant bits.
        body += [0x00, 0x11, 0x01, 0x00, 0x01]
        // Two-octet new-format length, valid for 192...8383; the body is always 269 bytes.
        let encodedLength = body.count - 192
        return [0xC0 | tag, UInt8(192 + encodedLength >> 8), UInt8(truncatingIfNeeded: encodedLength)] + body
    }

    /// RFC 4880 section 6.2: header line, blank line, base64 in 64-column lines, the CRC-24 checksum, footer.
    static func armoredPublicKey(_ packets: [UInt8]) -> String {
        let encoded = Array(Base64Text.encode(packets).utf8)
        var text = "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"
        var start = 0
        while start < encoded.count {
            let end = min(encoded.count, start + 64)
            text += String(decoding: encoded[start..<end], as: UTF8.self) + "\n"
            start = end
        }
        let crc = crc24(packets)
        text += "="
        text += Base64Text.encode([
            UInt8(truncatingIfNeeded: crc >> 16), UInt8(truncatingIfNeeded: crc >> 8), UInt8(truncatingIfNeeded: crc),
        ])
        return text + "\n-----END PGP PUBLIC KEY BLOCK-----\n"
    }

    /// RFC 4880 section 6.1.
    static func crc24(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xB7_04CE
        for byte in bytes {
            crc ^= UInt32(byte) << 16
            for _ in 0..<8 {
                crc <<= 1
                if crc & 0x100_0000 != 0 {
                    crc ^= 0x186_4CFB
                }
            }
        }
        return crc & 0xFF_FFFF
    }
}

extension StandInPopulation {
    /// `GET /users/{username}/gpg_keys`, oldest first; each generated key has one encryption subkey.
    package func gpgKeys(of user: StandInUser) -> [StandInGPGKey] {
        StandInGPGKeys.keys(of: user)
    }
}

/// FIPS 180-4 SHA-1, only for OpenPGP key ids, which are defined by it; nothing here relies on it for security.
enum StandInSHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 {
            padded.append(0)
        }
        let bitLength = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            for t in 0..<16 {
                let i = chunk + 4 * t
                w[t] =
                    UInt32(padded[i]) << 24 | UInt32(padded[i + 1]) << 16 | UInt32(padded[i + 2]) << 8
                    | UInt32(padded[i + 3])
            }
            for t in 16..<80 {
                let mixed = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]
                w[t] = mixed << 1 | mixed >> 31
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for t in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch t {
                case 0..<20:
                    (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40:
                    (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60:
                    (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default:
                    (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[t]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
            }
            h[0] &+= a
            h[1] &+= b
            h[2] &+= c
            h[3] &+= d
            h[4] &+= e
        }
        return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }
}
