import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// `check(registry)` knows the operation of a stub built with `matcher(for:)`.
@Suite struct OperationMatcherCheckTests {
    @Test func aStubByOperationIsCheckedNotListedAsUnchecked() throws {
        let registry = StubRegistry()
        registry.stub(try Shop.yaml.matcher(for: "getPet"), name: "good", responses: [try Shop.yaml.response(for: "getPet", status: 200)])
        registry.stub(
            try Shop.yaml.matcher(for: "getPet"), name: "bad",
            responses: [try StubResponse(json: ["id": "seven"], statusCode: 200)])
        let report = Shop.yaml.check(registry)
        #expect(report.notChecked == [], "\(report)")
        #expect(report.checkedCount == 2)
        #expect(report.findings.count == 2, "\(report)")
        #expect(report.findings.allSatisfy { $0.subject.contains("\"bad\"") }, "\(report)")
    }
}
