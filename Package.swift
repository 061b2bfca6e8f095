// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "URLStubs",
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "URLStubs", targets: ["URLStubs"]),
        .executable(name: "urlstubs-demo", targets: ["urlstubs-demo"]),
    ],
    targets: [
        .target(name: "URLStubs"),
        .executableTarget(name: "urlstubs-demo", dependencies: ["URLStubs"]),
        .testTarget(name: "URLStubsTests", dependencies: ["URLStubs"]),
    ],
    swiftLanguageModes: [.v6]
)
