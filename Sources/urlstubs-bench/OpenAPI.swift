import Foundation
import SyntheticFixtures
import URLStubs
import URLStubsOpenAPI

// Speed of the OpenAPI add-on: reading a generated 5 MB document shaped like real ones (YAML
// and JSON: reading, resolving every $ref and compiling every schema), building and checking
// every response of a 4 MB JSON document (what a self-check of stubs made from the document
// does), and checking a 1 MB JSON response against its schema (parsing the body included, as
// the contract check does). Each figure is the fastest of several runs, in wall-clock time;
// CPU time alongside.

func runOpenAPI() throws -> [Figure] {
    progress("openAPI: a 5 MB document, YAML and JSON…")
    let yaml = SyntheticFixtures.openAPIDocument(bytes: 5_000_000).yaml
    // The same kind of document, sized so that its JSON is 5 MB (JSON is terser than YAML).
    let json = SyntheticFixtures.openAPIDocument(bytes: 6_690_000).json
    var operations = 0
    let yamlSeconds = try fastest(3) { operations = try OpenAPIDocument(data: yaml, source: "bench.yaml").operations.count }
    let jsonSeconds = try fastest(3) { _ = try OpenAPIDocument(data: json, source: "bench.json") }
    guard operations > 1_000 else { throw BenchError("the synthetic document read \(operations) operations") }

    progress("openAPI: a 1 MB response against its schema…")
    let document = try OpenAPIDocument(data: json, source: "bench.json")
    let body = SyntheticFixtures.openAPIResponse(bytes: 1_000_000)
    var violations = 0
    let validate = try fastest(5) {
        violations = try document.violations(of: JSONValue.reading(body), againstSchemaAt: "#/components/schemas/ItemPage").count
    }
    guard violations == 0 else { throw BenchError("the synthetic response broke its schema \(violations) times") }

    progress("openAPI: every response of a 4 MB document built and checked…")
    let selfCheck = try selfCheckFigures()
    return selfCheck + [
        Figure(name: "openAPI.documentMB.yaml", value: Double(yaml.count) / 1e6, unit: "MB"),
        Figure(name: "openAPI.documentMB.json", value: Double(json.count) / 1e6, unit: "MB"),
        Figure(name: "openAPI.load5MBSeconds.yaml", value: yamlSeconds.wall, unit: "s", target: target("< 1") { $0 < 1 }),
        Figure(name: "openAPI.load5MBSeconds.json", value: jsonSeconds.wall, unit: "s", target: target("<= 0.5") { $0 <= 0.5 }),
        Figure(name: "openAPI.load5MBCPUSeconds.yaml", value: yamlSeconds.cpu, unit: "s CPU"),
        Figure(name: "openAPI.load5MBCPUSeconds.json", value: jsonSeconds.cpu, unit: "s CPU"),
        Figure(name: "openAPI.validate1MBResponseMs", value: validate.wall * 1000, unit: "ms", target: target("< 50") { $0 < 50 }),
        Figure(name: "openAPI.validate1MBResponseCPUMs", value: validate.cpu * 1000, unit: "ms CPU"),
    ]
}

/// `openAPI.selfCheck4MBDocumentSeconds`: for every operation of a 4 MB JSON document, a stub on
/// its method and path answering each response it documents, built with
/// `response(for:status:)`, then `check(_:)` of the registry. Findings are counted, not fatal:
/// the figure is the time.
private func selfCheckFigures() throws -> [Figure] {
    // Sized so that its JSON is about 4 MB.
    let json = SyntheticFixtures.openAPIDocument(bytes: 5_350_000).json
    let document = try OpenAPIDocument(data: json, source: "selfcheck.json")
    var responses = 0
    var report: ContractReport?
    let seconds = try fastest(1) {
        let registry = StubRegistry()
        responses = 0
        for operation in document.operations {
            guard let operationId = operation.operationId else { continue }
            let path = operation.pathTemplate.replacingOccurrences(of: "{id}", with: "1")
            let method = StubRequest.Method(rawValue: operation.method)
            for status in [200, 400, 404] {
                let response = try document.response(for: operationId, status: status)
                registry.stub(isMethod(method) && isPath(path), responses: [response])
                responses += 1
            }
        }
        report = document.check(registry)
    }
    let findings = report?.findings.count ?? 0
    if let first = report?.findings.first { progress("openAPI: \(findings) self-check findings; the first: \(first)") }
    guard responses > 3_000 else { throw BenchError("the self-check built \(responses) responses") }
    return [
        Figure(name: "openAPI.selfCheckDocumentMB", value: Double(json.count) / 1e6, unit: "MB"),
        Figure(name: "openAPI.selfCheckResponses", value: Double(responses), unit: "responses"),
        Figure(name: "openAPI.selfCheckFindings", value: Double(findings), unit: "findings"),
        Figure(
            name: "openAPI.selfCheck4MBDocumentSeconds", value: seconds.wall, unit: "s", target: target("<= 10") { $0 <= 10 }),
        Figure(name: "openAPI.selfCheck4MBDocumentCPUSeconds", value: seconds.cpu, unit: "s CPU"),
    ]
}
