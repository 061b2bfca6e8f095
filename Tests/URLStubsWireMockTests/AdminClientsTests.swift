import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import TestSupport
import URLStubs
import URLStubsServer
@testable import URLStubsWireMock

#if os(Linux) || os(macOS)
/// A WireMock client as a UI test writes one: URLSession and JSON against the documented
/// admin endpoints, nothing from URLStubs.
struct SwiftWireMockClient {
    let base: URL
    let session = URLSession(configuration: .ephemeral)

    func call(_ method: String, _ path: String, _ body: Any? = nil) async throws -> (status: Int, json: Any?) {
        var request = URLRequest(url: URL(string: base.absoluteString.trimmingCharacters(in: ["/"]) + path)!)
        request.httpMethod = method
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data.isEmpty ? nil : try? JSONSerialization.jsonObject(with: data))
    }

    func createMapping(_ mapping: [String: Any]) async throws -> String? {
        (try await call("POST", "/__admin/mappings", mapping).json as? [String: Any])?["id"] as? String
    }
    func requests() async throws -> [[String: Any]] {
        (try await call("GET", "/__admin/requests").json as? [String: Any])?["requests"] as? [[String: Any]] ?? []
    }
    func nearMisses(method: String, url: String) async throws -> [[String: Any]] {
        (try await call("POST", "/__admin/near-misses/request", ["method": method, "url": url]).json as? [String: Any])?["nearMisses"]
            as? [[String: Any]] ?? []
    }
    func scenarios() async throws -> [[String: Any]] {
        (try await call("GET", "/__admin/scenarios").json as? [String: Any])?["scenarios"] as? [[String: Any]] ?? []
    }
    func setScenario(_ name: String, to state: String) async throws -> Int {
        try await call("PUT", "/__admin/scenarios/\(name)/state", ["state": state]).status
    }
    func reset() async throws -> Int { try await call("POST", "/__admin/reset").status }
    func get(_ path: String) async throws -> (Int, String) {
        let (data, response) = try await session.data(from: URL(string: base.absoluteString.trimmingCharacters(in: ["/"]) + path)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}

/// The admin API driven by plain curl and by a Swift client: create a mapping, request it,
/// list requests, ask for near misses, step and set a scenario, reset.
@Suite("WireMock admin API from curl and a Swift client")
struct AdminClientsTests {
    static var scenarioMappings: [[String: Any]] {
        [
            [
                "scenarioName": "door", "requiredScenarioState": "Started", "newScenarioState": "open",
                "request": ["method": "POST", "url": "/door"], "response": ["body": "opened"],
            ],
            ["scenarioName": "door", "requiredScenarioState": "open", "request": ["method": "GET", "url": "/door"], "response": ["body": "open"]],
        ]
    }

    @Test func aSwiftClientDrivesTheAdminAPI() async throws {
        let registry = StubRegistry()
        let server = try registry.serveWireMock()
        defer { server.stop() }
        let client = SwiftWireMockClient(base: server.baseURL)
        defer { client.session.invalidateAndCancel() }
        let id = try await client.createMapping(["request": ["method": "GET", "urlPath": "/greeting"], "response": ["status": 200, "body": "hi"]])
        #expect(id != nil)
        #expect(try await client.get("/greeting") == (200, "hi"))
        let logged = try await client.requests()
        #expect(logged.contains { (($0["request"] as? [String: Any])?["url"] as? String) == "/greeting" }, "\(logged)")
        let misses = try await client.nearMisses(method: "GET", url: "/greetings")
        #expect(misses.count == 1)
        for mapping in Self.scenarioMappings { _ = try await client.createMapping(mapping) }
        #expect(try await client.scenarios().first?["state"] as? String == "Started")
        #expect(try await client.setScenario("door", to: "open") == 200)
        #expect(try await client.get("/door") == (200, "open"))
        #expect(try await client.reset() == 200)
        #expect(try await client.requests().isEmpty, "reset clears the journal")
        #expect(try await client.get("/greeting").0 == 404, "and removes mappings made over the API")
    }

    @Test func plainCurlDrivesTheAdminAPI() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            print("SKIPPED: curl is not installed here; install curl to run this test")
            return
        }
        let registry = StubRegistry()
        let server = try registry.serveWireMock()
        defer { server.stop() }
        func curl(_ arguments: [String]) async throws -> String {
            let result = try await runChildProcess(
                URL(fileURLWithPath: "/usr/bin/curl"), arguments: ["--silent", "--show-error", "--noproxy", "*", "--max-time", "20"] + arguments,
                environment: ProcessInfo.processInfo.environment, timeLimit: 30)
            #expect(result.status == 0, "\(arguments): \(result.output)")
            return result.output
        }
        let admin = server.url("/__admin").absoluteString
        let created = try await curl([
            "-X", "POST", "-H", "Content-Type: application/json", "--data",
            #"{"request": {"method": "GET", "url": "/from-curl"}, "response": {"status": 200, "body": "made by curl"}}"#, admin + "/mappings",
        ])
        #expect(created.contains(#""id""#), "\(created)")
        #expect(try await curl([server.url("/from-curl").absoluteString]) == "made by curl")
        #expect(try await curl([admin + "/requests"]).contains("/from-curl"))
        let near = try await curl(["-X", "POST", "--data", #"{"method": "GET", "url": "/from-curls"}"#, admin + "/near-misses/request"])
        #expect(near.contains("/from-curl") && near.contains("distance"), "\(near)")
        for mapping in Self.scenarioMappings {
            _ = try await curl([
                "-X", "POST", "--data", String(decoding: try JSONSerialization.data(withJSONObject: mapping), as: UTF8.self), admin + "/mappings",
            ])
        }
        #expect(try await curl(["-X", "POST", server.url("/door").absoluteString]) == "opened")
        #expect(try await curl([admin + "/scenarios"]).contains(#""open""#))
        _ = try await curl(["-X", "POST", admin + "/scenarios/reset"])
        #expect(try await curl([admin + "/scenarios"]).contains(#""Started""#))
        _ = try await curl(["-X", "POST", admin + "/reset"])
        let left = try await curl([admin + "/mappings"])
        #expect(!left.contains("/from-curl"), "reset removes mappings made over the API: \(left)")
    }
}
#endif
