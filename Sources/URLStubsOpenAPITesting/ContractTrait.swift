#if canImport(Testing)
import Foundation
import Testing
import URLStubsOpenAPI
import URLStubsTesting

/// A Swift Testing trait that checks everything the test's registry serves against an OpenAPI
/// document (``URLStubs/StubRegistry/checkContract(_:)``): each violation is reported when the
/// `.stubbed` (or `.stubs { }`) trait verifies the registry, at the line of the stub that
/// answered. List it after that trait, which makes the registry it binds to.
///
/// ```swift
/// @Test(.stubbed, .contract(openAPI: shopDocumentURL))
/// func showsThePet() async throws {
///     StubRegistry.current.stub(.get, "https://api.shop.test/pets/1", json: ["id": 1, "name": "Rex"])
///     …
/// }
/// ```
///
/// The document is read once per test; a document that does not read fails the test with
/// its ``URLStubsOpenAPI/OpenAPIError``. It lives in its own module so that `URLStubsOpenAPI`,
/// which an app may link in DEBUG builds, never links the Testing framework.
public struct ContractTrait: TestTrait, SuiteTrait, TestScoping {
    let load: @Sendable () throws -> OpenAPIDocument

    /// Applies to every test of a suite that carries it.
    public var isRecursive: Bool { true }

    /// A scope per test case: suites themselves get none.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> ContractTrait? {
        testCase == nil ? nil : self
    }

    /// Binds the document to the test's registry, then runs the test.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard let registry = TestScope.registry else {
            Issue.record(
                "the .contract(openAPI:) trait found no registry: list it after .stubbed or .stubs { } (traits set up in the order they are written)",
                sourceLocation: test.sourceLocation)
            try await function()
            return
        }
        registry.checkContract(try load())
        try await function()
    }
}

extension Trait where Self == ContractTrait {
    /// Checks the test's registry against the OpenAPI document (JSON or YAML) at `url`.
    public static func contract(openAPI url: URL) -> ContractTrait {
        ContractTrait { try OpenAPIDocument(contentsOf: url) }
    }

    /// Checks the test's registry against `document`.
    public static func contract(_ document: OpenAPIDocument) -> ContractTrait {
        ContractTrait { document }
    }
}
#endif
