import Foundation
import Testing
@testable import TestSupport
import URLStubs
import URLStubsServer
@testable import URLStubsWireMock

/// Python's official WireMock admin client (PyPI `wiremock`) drives the admin API unchanged.
/// `.ci/run` installs it in its tools environment and names that Python in
/// `URLSTUBS_WIREMOCK_PYTHON`; elsewhere the test runs when that variable names a Python with
/// the client, and says how to get one otherwise.
@Suite("WireMock's Python client")
struct PythonClientTests {
    static let python = ProcessInfo.processInfo.environment["URLSTUBS_WIREMOCK_PYTHON"]

    @Test(.enabled(if: python != nil, "set URLSTUBS_WIREMOCK_PYTHON to a Python with `pip install wiremock==2.7.0` (.ci/run does)"))
    func theOfficialClientCreatesListsAndResets() async throws {
        let registry = StubRegistry()
        let server = try registry.serveWireMock()
        defer { server.stop() }
        let script = """
            import sys, json, urllib.request
            from wiremock.constants import Config
            from wiremock.client import Mappings, Mapping, MappingRequest, MappingResponse, HttpMethods, Requests, Scenarios
            base = sys.argv[1]
            Config.base_url = base + "/__admin"
            created = Mappings.create_mapping(Mapping(
                priority=1,
                request=MappingRequest(method=HttpMethods.GET, url="/from-python"),
                response=MappingResponse(status=200, body="hello, python client")))
            body = urllib.request.urlopen(base + "/from-python").read().decode()
            listed = Mappings.retrieve_all_mappings()
            count = len(listed.mappings)
            Scenarios.reset_all_scenarios()
            Mappings.delete_all_mappings()
            after = len(Mappings.retrieve_all_mappings().mappings)
            print(json.dumps({"id": bool(created.id), "body": body, "count": count, "after": after}))
            """
        let result = try await Self.run(script, against: server)
        let text = result.output
        #expect(result.status == 0, "\(text)")
        #expect(text.contains(#""id": true"#), "\(text)")
        #expect(text.contains(#""body": "hello, python client""#), "\(text)")
        #expect(text.contains(#""count": 1"#), "\(text)")
        #expect(text.contains(#""after": 0"#), "\(text)")
    }

    // Every admin resource the official client has, each call checked by what it returns or
    // what the registry then answers: mappings one by one (read, replace, delete, reset,
    // remove by metadata), the journal (all, count, find, unmatched, reset), near misses,
    // the global settings and the scenarios.
    @Test(.enabled(if: python != nil, "set URLSTUBS_WIREMOCK_PYTHON to a Python with `pip install wiremock==2.7.0` (.ci/run does)"))
    func theOfficialClientDrivesEveryEndpoint() async throws {
        let registry = StubRegistry()
        let server = try registry.serveWireMock()
        defer { server.stop() }
        let script = """
            import sys, json, urllib.request, urllib.error
            from wiremock.constants import Config
            from wiremock.client import (Mappings, Mapping, MappingRequest, MappingResponse, HttpMethods, Requests, Scenarios,
                NearMisses, NearMissMatchRequest, NearMissMatchPatternRequest, GlobalSettings, GlobalSetting)
            base = sys.argv[1]
            Config.base_url = base + "/__admin"
            def get(path):
                try:
                    return urllib.request.urlopen(base + path).read().decode()
                except urllib.error.HTTPError as error:
                    return error.code
            out = {}
            made = Mappings.create_mapping(Mapping(
                request=MappingRequest(method=HttpMethods.GET, url_path="/p"),
                response=MappingResponse(status=200, body="one"), metadata={"team": "ios"}))
            out["read"] = Mappings.retrieve_mapping(made.id).response.body
            made.response = MappingResponse(status=200, body="two")
            Mappings.update_mapping(made)
            out["replaced"] = get("/p")
            get("/nowhere")
            out["all"] = len(Requests.get_all_received_requests().requests)
            out["count"] = Requests.get_matching_request_count(NearMissMatchPatternRequest(url_path="/p", method="GET")).count
            out["found"] = len(Requests.get_matching_requests(NearMissMatchPatternRequest(url_path="/p", method="GET")).requests)
            out["unmatched"] = [r.url for r in Requests.get_unmatched_requests().requests]
            near = NearMisses.find_nearest_misses_by_request(NearMissMatchRequest(url="/q", method="GET"))
            out["near"] = len(near.near_misses) > 0
            Requests.reset_request_journal()
            out["afterReset"] = len(Requests.get_all_received_requests().requests)
            # WireMock 3 answers a settings update with an empty 200 (GlobalSettingsUpdateTask:
            # ResponseDefinition.ok()), which this client then fails to read as JSON; the update
            # is made all the same, as against WireMock.
            def update_settings(delay):
                try:
                    GlobalSettings.update_global_settings(GlobalSetting(fixed_delay=delay))
                except ValueError:
                    pass
            update_settings(5)
            out["settings"] = json.loads(urllib.request.urlopen(base + "/__admin/settings").read())["settings"]["fixedDelay"]
            update_settings(0)
            Mappings.delete_mapping_by_metadata({"matchesJsonPath": {"expression": "$.team", "equalTo": "ios"}})
            out["afterMetadata"] = get("/p")
            other = Mappings.create_mapping(Mapping(request=MappingRequest(url="/o"), response=MappingResponse(body="o")))
            Mappings.delete_mapping(other.id)
            out["afterDelete"] = get("/o")
            Mappings.create_mapping(Mapping(request=MappingRequest(url="/r"), response=MappingResponse(body="r")))
            Mappings.reset_mappings()
            out["afterMappingsReset"] = get("/r")
            out["scenarios"] = len(Scenarios.reset_all_scenarios().text) >= 0
            print(json.dumps(out))
            """
        let result = try await Self.run(script, against: server)
        let text = result.output
        #expect(result.status == 0, "\(text)")
        let line = text.split(separator: "\n").last.map(String.init) ?? ""
        let out = try JSONValue(data: Data(line.utf8))
        #expect(
            out
                == .object([
                    "read": "one", "replaced": "two", "all": 2, "count": 1, "found": 1, "unmatched": ["/nowhere"], "near": true,
                    "afterReset": 0, "settings": 5, "afterMetadata": 404, "afterDelete": 404, "afterMappingsReset": 404, "scenarios": true,
                ]), "\(text)")
    }

    /// Runs `script` with the client's Python, the server's base URL its one argument. A child
    /// of `runChildProcess`: corelibs' `Process.run` reads past its directory buffer (see
    /// `SpawnedProcess`), which the address sanitizer stops the whole run for.
    static func run(_ script: String, against server: StubServer) async throws -> ChildProcessResult {
        try await runChildProcess(
            URL(fileURLWithPath: try #require(python)),
            arguments: ["-c", script, server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))],
            environment: ProcessInfo.processInfo.environment, timeLimit: 120)
    }
}
