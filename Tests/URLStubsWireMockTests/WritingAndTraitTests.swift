import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import TestSupport
import URLStubs
import URLStubsTesting
@testable import URLStubsWireMock
import XCTest

/// A registry's declarations written back as a WireMock folder, the `.wireMock` trait, and the
/// launch switch.
@Suite("WireMock folders written back and launched")
struct WritingAndTraitTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/WireMock")

    @Test func aFolderReadAndWrittenBackReadsAsTheSameMappings() throws {
        let root = try DeclarationTests.folder([
            "mappings/a.json": #"""
            {"id": "8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7", "priority": 2, "scenarioName": "cart", "requiredScenarioState": "Started",
             "request": {"method": "POST", "urlPathPattern": "/orders/[0-9]+", "headers": {"X-Id": {"doesNotContain": "x"}},
                         "queryParameters": {"tag": {"includes": [{"equalTo": "a"}]}},
                         "bodyPatterns": [{"equalToJson": {"n": "${json-unit.any-number}"}}, {"contains": "n"}]},
             "response": {"status": 201, "body": "{{request.path}}", "transformers": ["response-template"],
                          "delayDistribution": {"type": "uniform", "lower": 1, "upper": 2}}}
            """#,
            "mappings/b.json": #"""
            {"request": {"urlPath": "/file", "basicAuthCredentials": {"username": "ada", "password": "pw"}},
             "response": {"bodyFileName": "data/f.txt", "fixedDelayMilliseconds": 20, "fault": "EMPTY_RESPONSE"}}
            """#,
            "__files/data/f.txt": "file",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let registry = StubRegistry()
        try registry.stubs(fromWireMock: root)
        let copy = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: copy) }
        try registry.writeWireMockFolder(to: copy)
        let original = try WireMockFolder(contentsOf: root).mappings.map(\.mapping)
        let written = try WireMockFolder(contentsOf: copy).mappings.map(\.mapping)
        #expect(written == original)
        #expect(try String(contentsOf: copy.appendingPathComponent("__files/data/f.txt"), encoding: .utf8) == "file")
    }

    @Test func whatWireMockCannotSayIsNamed() {
        let declaration = StubDeclaration(name: "limited", response: ResponseDefinition(), times: 1)
        #expect(throws: FixtureError.self) { try WireMockMapping(declaration: declaration) }
        do {
            _ = try WireMockMapping(declaration: declaration)
        } catch {
            #expect("\(error)".contains("limited"))
            #expect("\(error)".contains("times"))
        }
        let gated = StubDeclaration(name: "gated", response: ResponseDefinition(gate: "g"))
        #expect("\(String(describing: try? WireMockMapping(declaration: gated)))" == "nil")
    }

    @Test(.wireMock(fixture)) func theTraitServesAFolder() async throws {
        let result = await fetch(request("https://api.test/hello"), from: StubRegistry.current)
        #expect(result.body == "hello from WireMock")
    }

    @Test func theLaunchSwitchReadsTheFolderFromTheEnvironmentOrArguments() throws {
        #expect(WireMockLauncher.requestedFolder(arguments: [], environment: [:], bundle: .main) == nil)
        let fromEnvironment = WireMockLauncher.requestedFolder(
            arguments: [], environment: ["URLSTUBS_WIREMOCK": Self.fixture.path], bundle: .main)
        #expect(fromEnvironment?.path == Self.fixture.path)
        let fromArguments = WireMockLauncher.requestedFolder(
            arguments: ["app", "-URLStubsWireMock", "/other"], environment: ["URLSTUBS_WIREMOCK": Self.fixture.path], bundle: .main)
        #expect(fromArguments?.path == "/other")
        let registry = StubRegistry()
        let stubs = try WireMockLauncher.activate(
            arguments: [], environment: ["URLSTUBS_WIREMOCK": Self.fixture.path], bundle: .main, globalTemplating: false, into: registry)
        #expect(stubs.count == 1)
    }
}

/// The XCTest spelling of the trait: `makeStubRegistry(wireMock:)` gives the test a registry
/// holding the folder, verified when the test ends.
final class WireMockXCTestHelperTests: XCTestCase {
    func testMakeStubRegistryServesAFolder() async throws {
        let registry = try makeStubRegistry(wireMock: WritingAndTraitTests.fixture)
        let result = await fetch(request("https://api.test/hello"), from: registry)
        XCTAssertEqual(result.body, "hello from WireMock")
    }
}
