import Foundation
import Networking
import TestProcessSetup

/// swift-corelibs-foundation makes `~/.cache/org.swift.foundation.URLCache/<executable>` and
/// `~/.local/share/<folder of the executable>` the first time a process creates any URLSessionConfiguration:
/// `.default` and `.ephemeral` alike, with `urlCache` and `httpCookieStorage` nil or not (measured with Swift
/// 6.3.1 on Linux). Only XDG folders that cannot exist keep them out, which is what gh-users does at launch
/// (`AppEnvironment.live`). For the test process, `TestProcessSetup` does it as the bundle loads, before any
/// test runs: a `setenv` made later raced another test's `Process.run` reading the environment, and crashed it.
package enum FoundationFolders {
    /// Checks that the bundle's load-time setup pointed the XDG folders away, before a test makes a URLSession.
    package static func keepOutOfHome() {
        precondition(gh_users_tests_folders_pointed() == 1, "TestProcessSetup did not run as the bundle loaded")
    }
}

extension URLSessionTransport {
    /// The live transport for an in-process test, made after Foundation's folders are kept out of $HOME.
    package static func outsideHome(
        maximumBodyBytes: Int = URLSessionTransport.defaultMaximumBodyBytes
    ) -> URLSessionTransport {
        FoundationFolders.keepOutOfHome()
        return URLSessionTransport(maximumBodyBytes: maximumBodyBytes)
    }
}
