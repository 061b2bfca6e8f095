import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

@Suite struct YAMLReaderTests {
    @Test func theShopDocumentReadsAsTheIndependentJSONConversionDoes() throws {
        let fromYAML = try YAMLReader.read(Data(contentsOf: Shop.yamlURL))
        let fromJSON = try JSONValue(data: Data(contentsOf: Shop.jsonURL))
        #expect(fromYAML.differences(from: fromJSON) == [])
    }
}
