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

    @Test(arguments: [
        "", "ssh-rsa AAA...", "ssh-rsa !!!!", "ssh-rsa AAAAB3NzaC1yc2EAAA",
        "ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIFeg1HYPEm/rxYUARAheqzSzOKbYarlA9daYY0MPW4L2",
        "2Sg8iYjAxxmI2LvUXpJjkYrMxURPc8r+dB7TJyvv1234",
    ])
    func aMalformedKeyHasNone(key: String) {
        #expect(SSHKeyFingerprint.sha256(of: key) == nil)
    }
}
