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
/// WireMock's faults served over the loopback server as socket behaviour, as WireMock's
/// "Simulating faults" page describes them, seen by clients nobody here wrote: curl, Python's
/// raw socket and `http.client`.
@Suite("WireMock faults on the wire")
struct FaultsOverLoopbackTests {
    /// A folder of one mapping per fault, served over loopback.
    static func served() throws -> (StubRegistry, StubServer, URL) {
        var files: [String: String] = [:]
        for fault in ["CONNECTION_RESET_BY_PEER", "EMPTY_RESPONSE", "MALFORMED_RESPONSE_CHUNK", "RANDOM_DATA_THEN_CLOSE"] {
            files["mappings/\(fault).json"] = #"{"request": {"urlPath": "/\#(fault)"}, "response": {"fault": "\#(fault)"}}"#
        }
        files["mappings/fine.json"] = #"{"request": {"urlPath": "/fine"}, "response": {"body": "still serving"}}"#
        let root = try DeclarationTests.folder(files)
        let registry = StubRegistry()
        try registry.stubs(fromWireMock: root)
        return (registry, try registry.serveWireMock(), root)
    }

    static func run(_ executable: String, _ arguments: [String]) async throws -> ChildProcessResult {
        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] { environment[name] = nil }
        return try await runChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: [executable] + arguments, environment: environment, timeLimit: 30)
    }

    /// What a raw socket reads after sending a GET for `path`: `reset`, or the bytes read
    /// before an orderly close (base64), printed as JSON by Python.
    static let rawSocketScript = """
        import base64, json, socket, sys
        port, path = int(sys.argv[1]), sys.argv[2]
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(("GET " + path + " HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\n\\r\\n" % port).encode())
        data = b""
        try:
            while True:
                chunk = sock.recv(4096)
                if not chunk:
                    print(json.dumps({"closed": True, "bytes": base64.b64encode(data).decode()}))
                    break
                data += chunk
        except ConnectionResetError:
            print(json.dumps({"reset": True, "bytes": base64.b64encode(data).decode()}))
        """

    struct RawRead: Decodable {
        var reset: Bool?
        var closed: Bool?
        var bytes: String
        var data: Data { Data(base64Encoded: bytes) ?? Data() }
    }

    static func rawRead(_ path: String, port: UInt16) async throws -> RawRead {
        let result = try await run("python3", ["-c", rawSocketScript, String(port), path])
        #expect(result.status == 0, "\(result.output)")
        let line = result.output.split(separator: "\n").last.map(String.init) ?? ""
        return try JSONDecoder().decode(RawRead.self, from: Data(line.utf8))
    }

    @Test func aRawSocketSeesEachFault() async throws {
        let (_, server, root) = try Self.served()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
        let reset = try await Self.rawRead("/CONNECTION_RESET_BY_PEER", port: server.port)
        #expect(reset.reset == true && reset.data.isEmpty, "a reset before any byte")
        let empty = try await Self.rawRead("/EMPTY_RESPONSE", port: server.port)
        #expect(empty.closed == true && empty.data.isEmpty, "an orderly close with nothing sent")
        let chunk = try await Self.rawRead("/MALFORMED_RESPONSE_CHUNK", port: server.port)
        let text = String(decoding: chunk.data, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n") && text.contains("Transfer-Encoding: chunked\r\n"), "\(text)")
        #expect(text.contains("\r\n\r\nlorem\r\n"), "a chunk size that is not hexadecimal: \(text)")
        #expect(chunk.closed == true)
        let random = try await Self.rawRead("/RANDOM_DATA_THEN_CLOSE", port: server.port)
        #expect(random.closed == true && random.data.count == 64 && !random.data.starts(with: Data("HTTP".utf8)))
    }

    @Test func curlSeesEachFault() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            print("SKIPPED: curl is not installed here; install curl to run this test")
            return
        }
        let (_, server, root) = try Self.served()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
        func curl(_ path: String) async throws -> ChildProcessResult {
            try await Self.run("curl", ["--silent", "--show-error", "--noproxy", "*", "--max-time", "20", server.url(path).absoluteString])
        }
        let reset = try await curl("/CONNECTION_RESET_BY_PEER")
        #expect(reset.status == 56 && reset.output.localizedCaseInsensitiveContains("reset"), "\(reset.status): \(reset.output)")
        let empty = try await curl("/EMPTY_RESPONSE")
        #expect(empty.status == 52 && empty.output.contains("Empty reply"), "\(empty.status): \(empty.output)")
        let chunk = try await curl("/MALFORMED_RESPONSE_CHUNK")
        #expect(chunk.status == 56 && chunk.output.localizedCaseInsensitiveContains("chunk"), "\(chunk.status): \(chunk.output)")
        let random = try await curl("/RANDOM_DATA_THEN_CLOSE")
        #expect(random.status != 0 && !random.output.isEmpty, "\(random.status): \(random.output)")
        // The server keeps serving after each fault.
        let fine = try await curl("/fine")
        #expect(fine.status == 0 && fine.output == "still serving", "\(fine.output)")
    }

    @Test func pythonsHTTPClientSeesEachFault() async throws {
        let (_, server, root) = try Self.served()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
        let script = """
            import http.client, json, sys
            port = int(sys.argv[1])
            seen = {}
            for path in ["/CONNECTION_RESET_BY_PEER", "/EMPTY_RESPONSE", "/MALFORMED_RESPONSE_CHUNK", "/RANDOM_DATA_THEN_CLOSE", "/fine"]:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                try:
                    connection.request("GET", path)
                    response = connection.getresponse()
                    seen[path] = "%d %s" % (response.status, response.read().decode())
                except Exception as error:
                    seen[path] = type(error).__name__
                connection.close()
            print(json.dumps(seen))
            """
        let result = try await Self.run("python3", ["-c", script, String(server.port)])
        let line = result.output.split(separator: "\n").last.map(String.init) ?? ""
        let seen = try JSONDecoder().decode([String: String].self, from: Data(line.utf8))
        #expect(seen["/CONNECTION_RESET_BY_PEER"] == "ConnectionResetError", "\(seen)")
        #expect(seen["/EMPTY_RESPONSE"] == "RemoteDisconnected", "\(seen)")
        #expect(seen["/MALFORMED_RESPONSE_CHUNK"] == "IncompleteRead", "\(seen)")
        #expect(seen["/RANDOM_DATA_THEN_CLOSE"] == "BadStatusLine", "\(seen)")
        #expect(seen["/fine"] == "200 still serving", "\(seen)")
    }

    @Test func urlSessionOverLoopbackFailsAndTheJournalSaysWhy() async throws {
        let (registry, server, root) = try Self.served()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        for path in ["/CONNECTION_RESET_BY_PEER", "/EMPTY_RESPONSE", "/MALFORMED_RESPONSE_CHUNK", "/RANDOM_DATA_THEN_CLOSE"] {
            do {
                let (data, _) = try await session.data(from: server.url(path))
                Issue.record("\(path) answered \(data.count) bytes")
            } catch {
                #expect(error is URLError, "\(path): \(error)")
            }
        }
        // The journal has each exchange, failed with the fault's URLError as in process.
        let failed = registry.journal.filter { $0.stub != nil && $0.errorDescription != nil }
        #expect(failed.count == 4, "\(registry.journal)")
    }
}
#endif
