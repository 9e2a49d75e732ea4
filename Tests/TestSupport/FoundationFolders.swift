import Foundation
import Networking

/// swift-corelibs-foundation makes `~/.cache/org.swift.foundation.URLCache/<executable>` and
/// `~/.local/share/<folder of the executable>` the first time a process creates any URLSessionConfiguration:
/// `.default` and `.ephemeral` alike, with `urlCache` and `httpCookieStorage` nil or not (measured with Swift
/// 6.3.1 on Linux). Only XDG folders that cannot exist keep them out, which is what gh-users does at launch
/// (`AppEnvironment.live`). The test process takes its URLSessions from here, so a plain `swift test` leaves
/// $HOME as it found it.
package enum FoundationFolders {
    /// Points the process's XDG folders at a path that can never be created, once, before its first URLSession.
    package static func keepOutOfHome() { _ = pointed }

    private static let pointed: Bool = {
        setenv("XDG_CACHE_HOME", "/dev/null/gh-users-tests", 1)
        setenv("XDG_DATA_HOME", "/dev/null/gh-users-tests", 1)
        return true
    }()
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
