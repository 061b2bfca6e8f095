// Fuzz target: the YAML reader, and OpenAPI documents read from the same bytes (YAML, or JSON
// when they start with "{").
// fuzz-also-compiles: Sources/URLStubsOpenAPI Sources/URLStubsScenarios Sources/URLStubsRecording Sources/URLStubsGraphQL Sources/URLStubsMultipart
import Foundation

/// libFuzzer's entry point: called once per generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenAPIYAML(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    do {
        let value = try YAMLReader.read(data)
        if value.isWritableAsJSON { _ = value.serialized() }
    } catch let error as YAMLError {
        precondition(error.line >= 1 && error.column >= 1, "a YAML error names a line and a column")
        precondition(!error.message.isEmpty, "a YAML error says what is wrong")
    } catch {
        preconditionFailure("the YAML reader threw something else than a YAMLError: \(error)")
    }
    if let document = try? OpenAPIDocument(data: data, source: "fuzz") {
        for operation in document.operations {
            _ = try? document.response(for: operation.operationId ?? "", status: 200)
        }
    }
    return 0
}
