import Foundation
import SyntheticFixtures
@_spi(AddOns) import URLStubs
import URLStubsOpenAPI

// Speed of the OpenAPI add-on: reading a generated 5 MB document (YAML and JSON: reading,
// resolving every $ref and compiling every schema), and checking a 1 MB JSON response against
// its schema (parsing the body included, as the contract check does). Each figure is the
// fastest of several runs, in wall-clock time; CPU time alongside.

func runOpenAPI() throws -> [Figure] {
    progress("openAPI: a 5 MB document, YAML and JSON…")
    let yaml = SyntheticFixtures.openAPIDocument(bytes: 5_000_000).yaml
    // The same kind of document, sized so that its JSON is 5 MB (JSON is terser than YAML).
    let json = SyntheticFixtures.openAPIDocument(bytes: 7_050_000).json
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
    return [
        Figure(name: "openAPI.documentMB.yaml", value: Double(yaml.count) / 1e6, unit: "MB"),
        Figure(name: "openAPI.documentMB.json", value: Double(json.count) / 1e6, unit: "MB"),
        Figure(name: "openAPI.load5MBSeconds.yaml", value: yamlSeconds.wall, unit: "s", target: target("< 1") { $0 < 1 }),
        Figure(name: "openAPI.load5MBSeconds.json", value: jsonSeconds.wall, unit: "s", target: target("< 1") { $0 < 1 }),
        Figure(name: "openAPI.load5MBCPUSeconds.yaml", value: yamlSeconds.cpu, unit: "s CPU"),
        Figure(name: "openAPI.load5MBCPUSeconds.json", value: jsonSeconds.cpu, unit: "s CPU"),
        Figure(name: "openAPI.validate1MBResponseMs", value: validate.wall * 1000, unit: "ms", target: target("< 50") { $0 < 50 }),
        Figure(name: "openAPI.validate1MBResponseCPUMs", value: validate.cpu * 1000, unit: "ms CPU"),
    ]
}
