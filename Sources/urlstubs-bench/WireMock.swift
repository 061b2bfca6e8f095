import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsWireMock

// Speed of WireMock mapping folders: loading a folder of 160 mappings and 2.5 MB (reading,
// strict decoding, templates, declarations, registration), and a request answered among
// 1,000 mappings against one answered by a folder of one, through a real URLSession.

func runWireMock(directory: URL, quick: Bool) async throws -> [Figure] {
    progress("wireMock: a folder of 160 mappings, 2.5 MB…")
    let large = directory.appendingPathComponent("wiremock-160")
    let bytes = try writeWireMockFolder(at: large, mappings: 160, bodyBytes: 15_500)
    let read = try fastest(quick ? 3 : 7) { _ = try WireMockFolder(contentsOf: large) }
    let readFolder = try WireMockFolder(contentsOf: large)
    let declare = try fastest(quick ? 3 : 7) { _ = try readFolder.declarations() }
    let declarations = try readFolder.declarations()
    let register = try fastest(quick ? 3 : 7) { _ = try StubRegistry().stub(declarations) }
    var loaded = 0
    // The fastest of 21: on a shared machine most loads wait for a core, and the figure is
    // what loading costs, not how long the scheduler kept it waiting.
    let load = try fastest(quick ? 3 : 21) { loaded = try StubRegistry().stubs(fromWireMock: large).count }
    guard loaded == 160 else { throw BenchError("the folder loaded \(loaded) mappings") }

    progress("wireMock: a request among 1,000 mappings and among one…")
    let one = directory.appendingPathComponent("wiremock-1")
    let thousand = directory.appendingPathComponent("wiremock-1000")
    _ = try writeWireMockFolder(at: one, mappings: 1, bodyBytes: 0)
    _ = try writeWireMockFolder(at: thousand, mappings: 1_000, bodyBytes: 0)
    var scenarios: [RequestScenario] = []
    var registries: [StubRegistry] = []
    for (name, folder) in [("wireMock1", one), ("wireMock1000", thousand)] {
        let registry = StubRegistry()
        try registry.stubs(fromWireMock: folder)
        var request = URLRequest(url: URL(string: "https://api.bench.local/v1/items/0?page=1")!)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        scenarios.append(RequestScenario(name: name, session: registry.makeSession(), request: request))
        registries.append(registry)
    }
    var samples: [String: [Double]] = [:]
    for scenario in scenarios { _ = try await scenario.run(50) }
    for _ in 0..<(quick ? 9 : 51) {
        for scenario in scenarios { samples[scenario.name, default: []].append(try await scenario.run(40).cpu) }
    }
    withExtendedLifetime(registries) {}
    let ratio = median(samples["wireMock1000"]!) / median(samples["wireMock1"]!)
    #if os(macOS) || os(Linux)
    let admin = try runWireMockAdmin(folder: large, quick: quick)
    #else
    let admin: [Figure] = []
    #endif
    return admin + [
        Figure(name: "wireMock.folderMB", value: Double(bytes) / 1e6, unit: "MB"),
        Figure(name: "wireMock.load160MappingsMs", value: load.wall * 1000, unit: "ms", target: target("< 50") { $0 < 50 }),
        Figure(name: "wireMock.load160MappingsCPUMs", value: load.cpu * 1000, unit: "ms CPU"),
        Figure(name: "wireMock.read160MappingsMs", value: read.wall * 1000, unit: "ms"),
        Figure(name: "wireMock.declare160MappingsMs", value: declare.wall * 1000, unit: "ms"),
        Figure(name: "wireMock.register160MappingsMs", value: register.wall * 1000, unit: "ms"),
        Figure(name: "wireMock1.cpu", value: median(samples["wireMock1"]!), unit: "µs CPU/request"),
        Figure(name: "wireMock1000.cpu", value: median(samples["wireMock1000"]!), unit: "µs CPU/request"),
        Figure(name: "wireMock1000/wireMock1.cpu", value: ratio, unit: "ratio", target: target("≤ 1.3") { $0 <= 1.3 }),
    ]
}

/// The profile modes of this file (`--only NAME --requests N`): `wireMock1` and
/// `wireMock1000` (a request among one mapping or 1,000), `wireMockStatic` and
/// `wireMockTemplated` (the same 1 KB answer, static or rendered from a template),
/// `wireMockLoad` (loading the 160-mapping folder `N` times) and `wireMockAdmin` (`N` admin
/// posts, each followed by a request it answers, over loopback).
let wireMockModes = ["wireMock1", "wireMock1000", "wireMockStatic", "wireMockTemplated", "wireMockLoad", "wireMockAdmin"]

/// Runs one of ``wireMockModes`` alone, for callgrind or perf.
func runWireMockOnly(_ name: String, count: Int) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-bench-wm-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: directory) }
    #if os(macOS) || os(Linux)
    if name == "wireMockAdmin" {
        let folder = directory.appendingPathComponent("wiremock-160")
        _ = try writeWireMockFolder(at: folder, mappings: 160, bodyBytes: 15_500)
        let figures = try runWireMockAdmin(folder: folder, quick: true, rounds: count)
        print("\(name): p50 \(formatted(figures[0].value, digits: 3)) ms, over \(count) posts and requests")
        return
    }
    #endif
    if name == "wireMockLoad" {
        let folder = directory.appendingPathComponent("wiremock-160")
        _ = try writeWireMockFolder(at: folder, mappings: 160, bodyBytes: 15_500)
        let start = now()
        try loadWireMockFolder(folder, times: count)
        print("\(name): \(formatted((now() - start) / Double(count) * 1000, digits: 2)) ms/load, over \(count) loads")
        return
    }
    let (scenario, registry) = try wireMockScenario(name, directory: directory)
    _ = try await scenario.run(min(200, count))
    let (perRequest, cpu) = try await scenario.run(count)
    print("\(name): \(formatted(perRequest, digits: 2)) µs/request, \(formatted(cpu, digits: 2)) µs CPU/request, over \(count) requests")
    withExtendedLifetime(registry) {}
}

/// Loads `folder` into a new registry `times` times: alone in its function, so that
/// `valgrind --tool=callgrind --toggle-collect='*loadWireMockFolder*'` counts loading only.
@inline(never)
func loadWireMockFolder(_ folder: URL, times: Int) throws {
    for _ in 0..<times { _ = try StubRegistry().stubs(fromWireMock: folder) }
}

/// The request scenario `name` (`wireMock1`, `wireMock1000`, `wireMockStatic`,
/// `wireMockTemplated`), its folder written under `directory`.
func wireMockScenario(_ name: String, directory: URL) throws -> (RequestScenario, StubRegistry) {
    let folder = directory.appendingPathComponent(name)
    switch name {
    case "wireMock1": _ = try writeWireMockFolder(at: folder, mappings: 1, bodyBytes: 0)
    case "wireMock1000": _ = try writeWireMockFolder(at: folder, mappings: 1_000, bodyBytes: 0)
    default: try writeOneKilobyteMapping(at: folder, templated: name == "wireMockTemplated")
    }
    let registry = StubRegistry()
    try registry.stubs(fromWireMock: folder)
    var request = URLRequest(url: URL(string: "https://api.bench.local/v1/items/0?page=1")!)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    return (RequestScenario(name: name, session: registry.makeSession(), request: request), registry)
}

/// One mapping answering `GET /v1/items/0` with a 1 KB text body and a header; templated, the
/// body and header are templates that render to the same bytes (`{{request.path}}` fills the
/// header and the body's first bytes).
func writeOneKilobyteMapping(at root: URL, templated: Bool) throws {
    let folder = root.appendingPathComponent("mappings")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = "/v1/items/0"
    let filler = String(repeating: "x", count: 1024 - path.count)
    var response: [String: Any] = [
        "status": 200, "headers": ["Content-Type": "text/plain", "X-Path": templated ? "{{request.path}}" : path],
        "body": (templated ? "{{request.path}}" : path) + filler,
    ]
    if templated { response["transformers"] = ["response-template"] }
    let mapping: [String: Any] = ["request": ["method": "GET", "urlPath": path], "response": response]
    try JSONSerialization.data(withJSONObject: mapping, options: [.sortedKeys]).write(to: folder.appendingPathComponent("item.json"))
}

/// Writes a folder of `mappings` mappings shaped like real ones (paths, path patterns and
/// templates, header and query matchers, JSON body patterns, a few templated responses), each
/// with a JSON body of about `bodyBytes`; the first answers `GET /v1/items/0` with 1 KB.
/// Returns the folder's size in bytes.
func writeWireMockFolder(at root: URL, mappings count: Int, bodyBytes: Int) throws -> Int {
    let folder = root.appendingPathComponent("mappings")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var total = 0
    let filler = String(repeating: "x", count: 60)
    for index in 0..<count {
        var request: [String: Any] = ["method": index % 3 == 0 ? "GET" : "POST"]
        switch index % 4 {
        case 0: request["urlPath"] = "/v1/items/\(index)"
        case 1: request["urlPathPattern"] = "/v1/orders/\(index)/[0-9]+"
        case 2: request["urlPathTemplate"] = "/v1/users/\(index)/{id}"
        default: request["url"] = "/v1/search/\(index)?q=a"
        }
        request["headers"] = ["Accept": ["contains": "json"]]
        if index % 4 == 0 { request["queryParameters"] = ["page": ["matches": "[0-9]+"]] }
        if index % 3 != 0 { request["bodyPatterns"] = [["equalToJson": ["id": "${json-unit.any-number}"], "ignoreExtraElements": true]] }
        var response: [String: Any] = ["status": 200, "headers": ["Content-Type": "application/json"]]
        if index == 0 {
            request["method"] = "GET"
            response["base64Body"] = oneKilobyte.base64EncodedString()
        } else {
            var items: [[String: Any]] = []
            var size = 0
            while size < bodyBytes {
                items.append(["id": items.count, "name": "item \(items.count)", "note": filler])
                size += 100
            }
            response["jsonBody"] = ["items": items]
            if index % 10 == 5 {
                response["transformers"] = ["response-template"]
                response["headers"] = ["Content-Type": "application/json", "X-Path": "{{request.path}}"]
            }
        }
        let mapping: [String: Any] = ["request": request, "response": response, "name": "mapping \(index)"]
        let data = try JSONSerialization.data(withJSONObject: mapping, options: [.sortedKeys])
        total += data.count
        try data.write(to: folder.appendingPathComponent(String(format: "%04d.json", index)))
    }
    return total
}
