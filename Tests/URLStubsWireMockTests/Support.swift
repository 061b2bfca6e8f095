import Foundation
import Testing
import URLStubs
import URLStubsWireMock

/// The one mapping of `json`, read as a mapping file named `mapping.json`.
func mapping(_ json: String) throws -> WireMockMapping {
    let mappings = try WireMockMapping.mappings(in: Data(json.utf8), source: "mapping.json")
    try #require(mappings.count == 1)
    return mappings[0]
}

/// The error reading `json` as a mapping file throws.
func problem(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> FixtureError? {
    do {
        _ = try WireMockMapping.mappings(in: Data(json.utf8), source: "mapping.json")
        Issue.record("expected an error", sourceLocation: sourceLocation)
        return nil
    } catch let error as FixtureError {
        return error
    } catch {
        Issue.record("expected a FixtureError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A value pattern read from its JSON object.
func pattern(_ json: String) throws -> WireMockMapping.StringValuePattern {
    try JSONDecoder().decode(WireMockMapping.StringValuePattern.self, from: Data(json.utf8))
}

/// A mapping's JSON written and read back.
func roundTrip(_ value: WireMockMapping) throws -> WireMockMapping {
    try mapping(String(decoding: JSONEncoder().encode(value), as: UTF8.self))
}
