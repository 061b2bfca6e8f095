// Fuzz target: URL pattern parsing and matching. Any input is a pattern and a path.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// libFuzzer's entry point: called once per generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURLPattern(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let pattern = String(parts[0])
    let path = parts.count > 1 ? String(parts[1]) : pattern
    do {
        let parsed = try PathPattern(pattern)
        if let captures = parsed.match(path) {
            precondition(captures.count <= parsed.segments.count, "more captures than segments")
        }
    } catch let error as PathPatternError {
        precondition(error.column >= 1 && !error.message.isEmpty, "an error must say where and what")
    } catch {
        preconditionFailure("unexpected error type \(error)")
    }
    // The matcher built from the same text must never crash either.
    _ = isPath(pattern).matches(StubRequest(URLRequest(url: URL(string: "https://fuzz.test")!)))
    return 0
}
