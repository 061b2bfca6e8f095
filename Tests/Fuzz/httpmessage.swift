// Fuzz target: the HTTP message (.response) parser. Any bytes are a file.
import Foundation

/// libFuzzer's entry point: called once per generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPMessage(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    do {
        let response = try StubResponse(httpMessageData: data, source: "fuzz.response")
        precondition((100...599).contains(response.statusCode), "a parsed status is always valid")
    } catch let error as FixtureError {
        precondition(error.line >= 1 && !error.expected.isEmpty, "an error says where and what")
    } catch {
        preconditionFailure("unexpected error type \(error)")
    }
    return 0
}
