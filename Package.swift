// swift-tools-version:6.0
import PackageDescription

/// What the debug build optimises (docs/DEVELOPMENT.md, "What the test phase costs"): the test machinery (the
/// stand-in, the test doubles and the end-to-end tests build large bodies and serve thousands of pages per run: at
/// -Onone they cost about 30 s more of the test phase's CPU), and the three product modules the in-process tests
/// spend most in (JSONBytes, Data and AtomicCore: 8 s of CPU more at -Onone). The executable, Domain and
/// Networking stay at the build's setting, and the end-to-end tests run the release binary.
let optimisedInTests: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "gh-users",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "gh-users", targets: ["gh-users"]),
        .executable(name: "github-standin", targets: ["github-standin"]),
    ],
    targets: [
        // Terminal plumbing shared by every command: IOStreams, display width, sanitising, view state.
        .target(name: "AtomicCore", swiftSettings: optimisedInTests),
        // JSON as bytes: splitting arrays and objects, re-spacing, projecting keys, without re-encoding a value.
        .target(name: "JSONBytes", swiftSettings: optimisedInTests),
        // Leveled, redacting logging to stderr.
        .target(name: "AtomicLogger"),
        // Entities, repository protocols, use cases and domain errors. Imports nothing of ours.
        .target(name: "Domain"),
        // HTTP client over a transport seam; the only home of FoundationNetworking. AtomicCore gives the debug
        // trace its terminal sanitising and the one Duration-to-seconds conversion.
        .target(name: "Networking", dependencies: ["AtomicLogger", "AtomicCore"]),
        // GitHub endpoints, DTOs, repositories. AtomicCore gives the cache's messages the one rule for a path.
        .target(
            name: "Data", dependencies: ["Domain", "Networking", "AtomicLogger", "AtomicCore", "JSONBytes"],
            swiftSettings: optimisedInTests),
        .executableTarget(
            name: "gh-users",
            dependencies: ["AtomicCore", "AtomicLogger", "JSONBytes", "Domain", "Data", "Networking"]
        ),
        // The loopback GitHub stand-in used by end-to-end tests and benchmarks.
        .target(
            name: "GitHubStandIn", dependencies: ["Domain", "JSONBytes"], resources: [.copy("Bodies"), .copy("World")],
            swiftSettings: optimisedInTests),
        .executableTarget(name: "github-standin", dependencies: ["GitHubStandIn"]),

        // Test doubles shared by the unit tests: a stub transport and a fake repository.
        // Points the test process's XDG folders away from $HOME as the bundle loads (a C constructor).
        .target(name: "TestProcessSetup", path: "Tests/TestProcessSetup"),
        .target(
            name: "TestSupport", dependencies: ["AtomicLogger", "Domain", "Data", "Networking", "TestProcessSetup"],
            path: "Tests/TestSupport", swiftSettings: optimisedInTests),
        .testTarget(name: "AtomicCoreTests", dependencies: ["AtomicCore", "TestSupport"]),
        .testTarget(name: "AtomicLoggerTests", dependencies: ["AtomicLogger"]),
        .testTarget(name: "JSONBytesTests", dependencies: ["JSONBytes", "TestSupport"]),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "Data", "JSONBytes", "TestSupport"]),
        .testTarget(
            name: "NetworkingTests",
            dependencies: ["Networking", "AtomicCore", "AtomicLogger", "TestSupport", "GitHubStandIn"]
        ),
        .testTarget(
            name: "DataTests",
            dependencies: ["Data", "Domain", "Networking", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "GhUsersTests",
            dependencies: [
                "gh-users", "AtomicCore", "AtomicLogger", "JSONBytes", "Domain", "Data", "Networking", "TestSupport",
            ]
        ),
        .testTarget(
            name: "GitHubStandInTests", dependencies: ["GitHubStandIn", "Data", "Domain", "JSONBytes", "TestSupport"]),
        .testTarget(
            name: "EndToEndTests", dependencies: ["GitHubStandIn", "gh-users", "TestSupport"],
            swiftSettings: optimisedInTests),
    ],
    swiftLanguageModes: [.v6]
)
