import Foundation
import URLStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Stubs as data: a declared stub answering among `others` declared stubs with distinct paths,
// and the time to read 1,000 declarations from their JSON form.

/// The bench item as a declaration (the one-liner's stub, as data), among `others` declarations
/// on distinct paths of the same host, all newer than it.
func declaredScenario(name: String, others: Int) throws -> (RequestScenario, StubRegistry) {
    let registry = StubRegistry()
    try registry.stub(
        StubDeclaration(
            name: "bench item", request: RequestPattern(method: "GET", url: .equalTo(benchURL.absoluteString)),
            response: ResponseDefinition(body: .bytes(oneKilobyte))))
    try registry.stub(
        (0..<others).map { index in
            StubDeclaration(
                name: "other \(index)", request: RequestPattern(method: "GET", host: .equalTo("api.bench.local"), path: .equalTo("/v1/d/\(index)")),
                response: ResponseDefinition(body: .text("x")))
        })
    return (RequestScenario(name: name, session: registry.makeSession(), request: URLRequest(url: benchURL)), registry)
}

/// 1,000 declarations in their JSON form, each with a path, a header, a query parameter, a
/// JSON body pattern and a JSON response.
func declarationsJSON(count: Int) -> Data {
    let list = (0..<count).map { index in
        StubDeclaration(
            name: "declaration \(index)",
            request: RequestPattern(
                method: "POST", host: .equalTo("api.example.com"), path: .template("/v1/users/:id/items/\(index)"),
                query: ["page": .matches("^[0-9]+$")], headers: ["Accept": .contains("json")],
                body: [.json(["item": .integer(index), "tags": ["a", "b"]], ignoreExtraElements: true)]),
            response: ResponseDefinition(status: 201, headers: ["Cache-Control": "no-store"], body: .json(["id": .integer(index), "ok": true])))
    }
    return (try? JSONEncoder().encode(list)) ?? Data()
}

func runDeclarationReading() throws -> [Figure] {
    progress("parsers: 1,000 declarations from JSON…")
    let json = declarationsJSON(count: 1_000)
    let seconds = try fastest(3) { _ = try StubDeclaration.read(from: json, source: "bench.json") }
    return [
        Figure(name: "declarations1k.decodeSeconds", value: seconds.wall, unit: "s", target: target("< 0.05") { $0 < 0.05 }),
        Figure(name: "declarations1k.decodeCPUSeconds", value: seconds.cpu, unit: "s CPU"),
    ]
}
