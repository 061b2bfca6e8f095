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
        // runChildProcess: corelibs' `Process.run` reads past its directory buffer (see
        // `SpawnedProcess`), which the address sanitizer stops the whole run for.
        let result = try await runChildProcess(
            URL(fileURLWithPath: try #require(Self.python)),
            arguments: ["-c", script, server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))],
            environment: ProcessInfo.processInfo.environment, timeLimit: 120)
        let text = result.output
        #expect(result.status == 0, "\(text)")
        #expect(text.contains(#""id": true"#), "\(text)")
        #expect(text.contains(#""body": "hello, python client""#), "\(text)")
        #expect(text.contains(#""count": 1"#), "\(text)")
        #expect(text.contains(#""after": 0"#), "\(text)")
    }
}
