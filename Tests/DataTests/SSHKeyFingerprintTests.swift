import Testing

@testable import Data

struct SSHKeyFingerprintTests {
    @Test func matchesWhatSshKeygenPrints() {
        // `ssh-keygen -lf` on this key prints SHA256:M0zVlkNU/CNb/xsa/kHw6MgsZ3pJGdOWag4a/Yoe/OI.
        let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFeg1HYPEm/rxYUARAheqzSzOKbYarlA9daYY0MPW4L2 test"
        #expect(SSHKeyFingerprint.sha256(of: key) == "SHA256:M0zVlkNU/CNb/xsa/kHw6MgsZ3pJGdOWag4a/Yoe/OI")
        #expect(
            SSHKeyFingerprint.sha256(of: "AAAAC3NzaC1lZDI1NTE5AAAAIFeg1HYPEm/rxYUARAheqzSzOKbYarlA9daYY0MPW4L2")
                == "SHA256:M0zVlkNU/CNb/xsa/kHw6MgsZ3pJGdOWag4a/Yoe/OI")
    }

    /// Made by `ssh-keygen -t ecdsa`; `ssh-keygen -lf` prints SHA256:o8f5tlkC8fUfInnt0n0gWUsJEjsFJJBnwyILYbZfa0Y.
    static let ecdsa =
        "AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBDfoSFWJJRwJe7g757YLL7OR2vt1b8Cm19xPtFXbFaK4PpMpem8LfSNSy73Eg"
        + "+JfcWPI6LgF78ScJ+lvCi2BM2g="

    /// Made by `ssh-keygen -t rsa -b 1024`, the shortest RSA key it takes; `ssh-keygen -lf` prints
    /// SHA256:4VKwBwRrwd1La/nBPfSXc/P8loN0+ew1fO3sq/7iWJw.
    static let rsa1024 =
        "AAAAB3NzaC1yc2EAAAADAQABAAAAgQC8hxhGCrL9HQyU7Tc/9J1CCF8Db23IxbJmB12YpZHe1r+XWPGa/xx/t1jqDmP/+dDcl5iR"
        + "A7Ccx4dd/W+4gdgnWmCkB1lT5tD22omFp/QwtRZFKngNyj8zaJYI64YwBR/+JXUsZV45eewwQEnUByJyaecDLwGd4SnS7+W/SSOy"
        + "ww=="

    @Test func anRSAKeyOf1024BitsHasOne() {
        #expect(
            SSHKeyFingerprint.sha256(of: "ssh-rsa \(Self.rsa1024) t")
                == "SHA256:4VKwBwRrwd1La/nBPfSXc/P8loN0+ew1fO3sq/7iWJw")
    }

    @Test func anECDSAKeyHasOne() {
        #expect(
            SSHKeyFingerprint.sha256(of: "ecdsa-sha2-nistp256 \(Self.ecdsa) t")
                == "SHA256:o8f5tlkC8fUfInnt0n0gWUsJEjsFJJBnwyILYbZfa0Y")
        #expect(
            SSHKeyFingerprint.sha256(
                of: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDiq+9tAd+gZys0wwEXe+XxZJN6S5QBz4GEtAV1tPW9N")
                == "SHA256:Kg43eCeVqtvt4rffx6W8FRqebqxIli96cZP9KA5oGVQ")
    }

    @Test(arguments: [
        "", "ssh-rsa AAA...", "ssh-rsa !!!!", "ssh-rsa AAAAB3NzaC1yc2EAAA",
        "ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIFeg1HYPEm/rxYUARAheqzSzOKbYarlA9daYY0MPW4L2",
        "2Sg8iYjAxxmI2LvUXpJjkYrMxURPc8r+dB7TJyvv1234",
        // ECDSA key data labelled ssh-ed25519 (`ssh-keygen -lf` fails on each of the rest too).
        "ssh-ed25519 " + SSHKeyFingerprintTests.ecdsa,
        // Cut short, with a field added, and with bytes added.
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDiq+9tAd+gZys0wwEXe+XxZJN6S5QBz4GEt",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDiq+9tAd+gZys0wwEXe+XxZJN6S5QBz4GEtAV1tPW9NAAAAAA==",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDiq+9tAd+gZys0wwEXe+XxZJN6S5QBz4GEtAV1tPW9NAAAA",
        "ecdsa-sha2-nistp256 " + SSHKeyFingerprintTests.ecdsa.dropLast(9),
        // An ECDSA key whose curve field says nistp384, and an Ed25519 key of 31 bytes.
        "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAzODQAAABBBDfoSFWJJRwJe7g757YLL7OR2vt1b8Cm19xPtF"
            + "XbFaK4PpMpem8LfSNSy73Eg+JfcWPI6LgF78ScJ+lvCi2BM2g=",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAHziq+9tAd+gZys0wwEXe+XxZJN6S5QBz4GEtAV1tPW8=",
        // An RSA modulus of 512 bits, shorter than ssh-keygen takes.
        "ssh-rsa " + "AAAAB3NzaC1yc2EAAAADAQABAAAAQQCAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
            + "AAAAAAAAAAAAAAAAAAAAAAADA5",
    ])
    func aMalformedKeyHasNone(key: String) {
        #expect(SSHKeyFingerprint.sha256(of: key) == nil)
    }

    /// helper-339's survivors: a blob alone whose first field names no key type ("abc"); an Ed25519 key of 33
    /// bytes; an ECDSA point that is not uncompressed (0x02); a modulus of 128 bytes whose first is 0x01 (1,017
    /// bits). Each had a fingerprint under a mutation no test saw.
    static let refusedBySSHKeygen: [String] = [
        "AAAAA2FiYwAAAAF4",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIQECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gIQ==",
        "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBAjfoSFWJJRwJe7g757YLL7OR2vt1b8Cm19xPt"
            + "FXbFaK4PpMpem8LfSNSy73Eg+JfcWPI6LgF78ScJ+lvCi2BM2g=",
        "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgAG" + String(repeating: "rq6u", count: 42) + "r",
    ]

    @Test(arguments: refusedBySSHKeygen)
    func aKeySSHKeygenRefusesHasNone(key: String) {
        #expect(SSHKeyFingerprint.sha256(of: key) == nil)
    }
}
