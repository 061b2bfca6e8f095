// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "URLStubs",
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "URLStubs", targets: ["URLStubs"]),
        .library(name: "URLStubsTesting", targets: ["URLStubsTesting"]),
        .executable(name: "urlstubs-demo", targets: ["urlstubs-demo"]),
        .executable(name: "urlstubs-bench", targets: ["urlstubs-bench"]),
        .executable(name: "urlstubs-scenario-probe", targets: ["urlstubs-scenario-probe"]),
    ],
    targets: [
        // The library apps may link (in DEBUG builds): no test framework in here.
        .target(name: "URLStubs"),
        // Swift Testing traits and XCTest helpers; link only from test targets.
        .target(name: "URLStubsTesting", dependencies: ["URLStubs"]),
        .executableTarget(name: "urlstubs-demo", dependencies: ["URLStubs"]),
        .executableTarget(name: "urlstubs-bench", dependencies: ["URLStubs"]),
        // An "app" for the scenario tests: picks scenarios from its launch environment.
        .executableTarget(name: "urlstubs-scenario-probe", dependencies: ["URLStubs"]),
        // Test fixtures live in the top-level Fixtures/ folder and are read by path; Resources/
        // holds what the Bundle.module tests need.
        .testTarget(name: "URLStubsTests", dependencies: ["URLStubs", "URLStubsTesting"], resources: [.copy("Resources")]),
    ],
    swiftLanguageModes: [.v6]
)
