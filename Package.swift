// swift-tools-version:6.1
import PackageDescription

// Apple's loading path (run loops, `wasRedirectedTo`) is compiled where Apple's URL loading
// system runs; everywhere else the corelibs path is. `.ci/run` also type-checks the Apple path on
// Linux by forcing the condition on.
let swiftSettings: [SwiftSetting] = [
    .define("URLSTUBS_APPLE_LOADING", .when(platforms: [.macOS, .iOS, .tvOS, .visionOS, .macCatalyst]))
]

let package = Package(
    name: "URLStubs",
    // Custom URL protocols are unsupported on watchOS 2 and later (Apple's URLProtocol docs), so
    // watchOS is not a platform of this package. iOS 15 / macOS 12 bring async URLSession.
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .visionOS(.v1)],
    // Only the libraries are products. The demo (the README's first command), the benchmark and
    // the probe apps are executable targets of this package: `swift run urlstubs-demo` runs one
    // here, and no package that depends on URLStubs sees them.
    products: [
        .library(name: "URLStubs", targets: ["URLStubs"]),
        .library(name: "URLStubsTesting", targets: ["URLStubsTesting"]),
        .library(name: "URLStubsTestRunnerLink", targets: ["URLStubsTestRunnerLink"]),
        .library(name: "URLStubsScenarios", targets: ["URLStubsScenarios"]),
        .library(name: "URLStubsRecording", targets: ["URLStubsRecording"]),
        .library(name: "URLStubsOpenAPI", targets: ["URLStubsOpenAPI"]),
        .library(name: "URLStubsOpenAPITesting", targets: ["URLStubsOpenAPITesting"]),
        .library(name: "URLStubsServer", targets: ["URLStubsServer"]),
        .library(name: "URLStubsMigration", targets: ["URLStubsMigration"]),
        .library(name: "URLStubsGraphQL", targets: ["URLStubsGraphQL"]),
        .library(name: "URLStubsMultipart", targets: ["URLStubsMultipart"]),
        .library(name: "URLStubsStreaming", targets: ["URLStubsStreaming"]),
        .library(name: "URLStubsWireMock", targets: ["URLStubsWireMock"]),
    ],
    targets: [
        // The library apps may link (in DEBUG builds): no test framework in here.
        .target(name: "URLStubs", swiftSettings: swiftSettings),
        // Swift Testing traits and XCTest helpers; link only from test targets.
        .target(
            name: "URLStubsTesting",
            dependencies: [
                "URLStubs", "URLStubsServer", "URLStubsTestRunnerLink", "URLStubsScenarios", "URLStubsRecording", "URLStubsGraphQL",
                "URLStubsMultipart",
                "URLStubsStreaming", "URLStubsWireMock",
            ],
            swiftSettings: swiftSettings),
        // The deprecated spellings (URLStubs 0.1's and OHHTTPStubs'), each forwarding to the one
        // spelling of its idea: imported while migrating, so the engine carries none of them.
        .target(
            name: "URLStubsMigration", dependencies: ["URLStubs", "URLStubsGraphQL", "URLStubsRecording", "URLStubsScenarios", "URLStubsStreaming"],
            swiftSettings: swiftSettings),
        // The app's end of a UI test's link (`TestRunnerLink`, the frames, the loopback socket):
        // apps that UI tests drive link it in DEBUG builds; stubs cross as the engine's
        // declarations, so it stands on the engine alone. URLStubsTesting holds the test's end
        // and re-exports it.
        .target(
            name: "URLStubsTestRunnerLink",
            dependencies: ["URLStubs", "LoopbackSockets"],
            swiftSettings: swiftSettings),
        // Scenarios (named sets of stubs an app's DEBUG build picks at launch, from code, folders
        // or HAR files), network profiles and the launcher.
        .target(name: "URLStubsScenarios", dependencies: ["URLStubs"], swiftSettings: swiftSettings),
        // HAR reading and writing, HAR replay, and recording real traffic into cassettes (which
        // scrubs GraphQL documents and multipart forms, so it registers both formats).
        .target(name: "URLStubsRecording", dependencies: ["URLStubs", "URLStubsGraphQL"], swiftSettings: swiftSettings),
        // Bodies that arrive over time: live streams the test writes, scripts, and their wire
        // formats (server-sent events, JSON Lines); the engine plays them through its own seam.
        .target(name: "URLStubsStreaming", dependencies: ["URLStubs"], swiftSettings: swiftSettings),
        // Multipart bodies: the `hasMultipartPart` matchers, their report lines, replay and scrubbing.
        .target(name: "URLStubsMultipart", dependencies: ["URLStubs"], swiftSettings: swiftSettings),
        // GraphQL: operation matchers and responses, batches, report lines, replay and scrubbing;
        // uploads are read through URLStubsMultipart.
        .target(name: "URLStubsGraphQL", dependencies: ["URLStubs", "URLStubsMultipart"], swiftSettings: swiftSettings),
        // WireMock mapping folders (`mappings/**/*.json` and `__files/`): the mapping model, its
        // matchers as pure functions, and WireMock's response templates; no JVM. Its admin API
        // is served by the loopback server, the one wing built on another.
        .target(name: "URLStubsWireMock", dependencies: ["URLStubs", "URLStubsServer"], swiftSettings: swiftSettings),
        // The same stubs over a loopback HTTP/1.1 server (POSIX sockets, DispatchSources), for
        // clients that do not load through URLSession.
        .target(name: "URLStubsServer", dependencies: ["URLStubs", "LoopbackSockets"], swiftSettings: swiftSettings),
        // The platform's socket calls the server, the UI-test link and the benchmark share (not
        // a product: each difference between C libraries is handled once).
        .target(name: "LoopbackSockets", swiftSettings: swiftSettings),
        // Checks stubs and traffic against an OpenAPI document; apps may link it in DEBUG builds.
        .target(
            name: "URLStubsOpenAPI", dependencies: ["URLStubs", "URLStubsMultipart"],
            swiftSettings: swiftSettings),
        // The `.contract(openAPI:)` Swift Testing trait: a target of its own so URLStubsOpenAPI
        // never imports Testing.
        .target(
            name: "URLStubsOpenAPITesting", dependencies: ["URLStubsOpenAPI", "URLStubsTesting", "URLStubsScenarios", "URLStubsRecording"],
            swiftSettings: swiftSettings),
        .executableTarget(name: "urlstubs-demo", dependencies: ["URLStubs", "URLStubsStreaming"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "urlstubs-bench",
            dependencies: [
                "URLStubs", "URLStubsOpenAPI", "URLStubsRecording", "URLStubsServer", "URLStubsTestRunnerLink", "URLStubsGraphQL",
                "URLStubsStreaming", "SyntheticFixtures", "LoopbackSockets", "URLStubsWireMock",
            ],
            swiftSettings: swiftSettings),
        // Large inputs made in memory, shared by the benchmark and the parser speed tests.
        .target(name: "SyntheticFixtures", swiftSettings: swiftSettings),
        // An "app" for the scenario tests: picks scenarios from its launch environment.
        .executableTarget(name: "urlstubs-scenario-probe", dependencies: ["URLStubs", "URLStubsScenarios"], swiftSettings: swiftSettings),
        // An "app" for the AppBackend tests: connects to the test's AppBackend at launch, then
        // loads what its stdin says.
        .executableTarget(
            name: "urlstubs-app-probe", dependencies: ["URLStubs", "URLStubsScenarios", "URLStubsTestRunnerLink"], swiftSettings: swiftSettings),
        // Test fixtures live in the top-level Fixtures/ folder and are read by path; Resources/
        // holds what the Bundle.module tests need.
        // The loopback HTTP server (Tests/Server/stub_server.py) both test targets talk to.
        .target(name: "LoopbackTestServer", dependencies: ["URLStubs"], path: "Tests/LoopbackTestServer", swiftSettings: swiftSettings),
        // A module that declares its own public `HTTPHeaders`, as Alamofire and NIOHTTP1 do: test
        // files import it beside URLStubsTesting, with and without URLStubsMigration (not a product).
        .target(name: "HTTPHeadersNamesake", path: "Tests/HTTPHeadersNamesake", swiftSettings: swiftSettings),
        // The helpers every test target shares (see Tests/TestSupport/TestSupport.swift).
        .target(
            name: "TestSupport", dependencies: ["URLStubs", "URLStubsRecording", "URLStubsTestRunnerLink", "LoopbackTestServer"],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings),
        // One test target per library, testing that library: the engine's tests link no wing.
        .testTarget(
            name: "URLStubsTests", dependencies: ["URLStubs", "SyntheticFixtures", "LoopbackTestServer", "TestSupport"],
            resources: [.copy("Resources")], swiftSettings: swiftSettings),
        .testTarget(
            name: "URLStubsTestingTests", dependencies: ["URLStubs", "URLStubsTesting", "LoopbackTestServer", "TestSupport", "HTTPHeadersNamesake"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "URLStubsRecordingTests",
            dependencies: [
                "URLStubs", "URLStubsRecording", "URLStubsScenarios", "URLStubsTesting", "SyntheticFixtures", "LoopbackTestServer", "TestSupport",
            ],
            // Recordings/ holds the cassettes of the .replaying tests, read by path from #filePath.
            exclude: ["Recordings"], swiftSettings: swiftSettings),
        .testTarget(
            name: "URLStubsTestRunnerLinkTests",
            dependencies: [
                "URLStubs", "URLStubsTestRunnerLink", "URLStubsScenarios", "URLStubsServer", "URLStubsTesting", "LoopbackTestServer", "TestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "URLStubsScenariosTests",
            dependencies: ["URLStubs", "URLStubsScenarios", "URLStubsGraphQL", "URLStubsRecording", "LoopbackTestServer", "TestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "URLStubsMigrationTests",
            dependencies: [
                "URLStubs", "URLStubsMigration", "URLStubsRecording", "URLStubsScenarios", "URLStubsStreaming", "URLStubsTesting", "TestSupport",
                "HTTPHeadersNamesake",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "URLStubsStreamingTests", dependencies: ["URLStubs", "URLStubsStreaming", "LoopbackTestServer", "TestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "URLStubsMultipartTests", dependencies: ["URLStubs", "URLStubsMultipart", "LoopbackTestServer", "TestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "URLStubsGraphQLTests",
            dependencies: [
                "URLStubs", "URLStubsGraphQL", "URLStubsMultipart", "URLStubsRecording", "URLStubsScenarios", "URLStubsTesting", "LoopbackTestServer",
                "TestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "URLStubsWireMockTests",
            dependencies: ["URLStubs", "URLStubsWireMock", "URLStubsRecording", "URLStubsTesting", "LoopbackTestServer", "TestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "URLStubsServerTests",
            dependencies: ["URLStubs", "URLStubsServer", "URLStubsStreaming", "URLStubsRecording", "URLStubsTesting", "LoopbackTestServer"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "URLStubsOpenAPITests",
            dependencies: [
                "URLStubs", "URLStubsRecording", "URLStubsScenarios", "URLStubsTesting", "URLStubsOpenAPI", "URLStubsOpenAPITesting",
                "SyntheticFixtures",
                "LoopbackTestServer",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "URLStubsOpenAPITestingTests", dependencies: ["URLStubs", "URLStubsOpenAPI", "URLStubsOpenAPITesting", "URLStubsTesting"],
            swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)
