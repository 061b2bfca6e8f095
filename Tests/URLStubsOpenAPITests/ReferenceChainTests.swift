import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// Schemas that are a `$ref` alone, alone or in a chain: a chain loads in time linear in its
/// length, and each of its schemas is a place a value can be checked against.
@Suite struct ReferenceChainTests {
    /// A JSON document whose schemas `S0` … `S<links - 1>` are each a `$ref` to the next, and
    /// `S<links>` is a string.
    static func chain(links: Int) -> Data {
        var text = #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {"#
        for link in 0..<links { text += ##""S\##(link)": {"$ref": "#/components/schemas/S\##(link + 1)"}, "## }
        text += #""S\#(links)": {"type": "string"}}}}"#
        return Data(text.utf8)
    }

    @Test func aChainOfAHundredThousandReferencesLoadsInSeconds() throws {
        let text = Self.chain(links: 100_000)
        #expect(text.count > 5_000_000)
        let start = Date()
        let contract = try OpenAPIDocument(data: text, source: "chain.json")
        let seconds = Date().timeIntervalSince(start)
        // About 2.5 s in a debug build on the 2-core machine; a reading quadratic in the chain's
        // length takes over 10 minutes there.
        #expect(seconds < 30, "\(seconds) s")
        // One schema: every link shares the string's.
        #expect(contract.schemas.nodes.count == 1)
    }

    static let aliases = try! document(
        """
        openapi: 3.0.3
        info: {title: t, version: '1'}
        paths: {}
        components:
          schemas:
            Pet: {type: object, required: [name], properties: {name: {type: string}}}
            Animal: {$ref: '#/components/schemas/Pet'}
            Creature: {$ref: '#/components/schemas/Animal'}
        """)

    @Test(arguments: ["Pet", "Animal", "Creature"])
    func aSchemaThatIsOnlyAReferenceIsCheckedAsItsTarget(name: String) throws {
        let pointer = "#/components/schemas/" + name
        #expect(try Self.aliases.violations(of: ["name": "Rex"], againstSchemaAt: pointer) == [])
        #expect(
            try Self.aliases.violations(of: ["name": 3], againstSchemaAt: pointer).map(\.description) == [
                "$.name: expected type string, found integer 3 (#/components/schemas/Pet/properties/name/type)"
            ])
    }

    @Test func eachLinkOfALongChainIsAPlaceToCheckAgainst() throws {
        let contract = try OpenAPIDocument(data: Self.chain(links: 1_000), source: "chain.json")
        for link in [0, 500, 999, 1_000] {
            #expect(
                try contract.violations(of: 7, againstSchemaAt: "#/components/schemas/S\(link)").map(\.description) == [
                    "$: expected type string, found integer 7 (#/components/schemas/S1000/type)"
                ])
        }
    }

    @Test func aPointerToNoSchemaIsStillAnError() {
        let error = #expect(throws: OpenAPIError.self) {
            try Self.aliases.violations(of: 1, againstSchemaAt: "#/components/schemas/Plant")
        }
        #expect(error?.description == "inline.yaml: #/components/schemas/Plant: no schema of the document is there")
    }
}
