// Fuzz target: the HAR reader and the replay stubs built from what it accepts.
// fuzz-also-compiles: Sources/URLStubsRecording Sources/URLStubsGraphQL Sources/URLStubsMultipart
import Foundation

/// libFuzzer's entry point: called once per generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHAR(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    // The fast JSON reader HAR uses must agree with JSONSerialization on whatever it takes
    // (fractions within rounding: JSONSerialization reads some through NSDecimalNumber).
    if let fast = JSONBytesReader.value(from: data) {
        precondition(
            (try? JSONValue(any: JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))).map { agree(fast, $0) } == true,
            "the fast JSON reader and JSONSerialization agree")
    }
    do {
        let entries = try HAR.read(data, source: "fuzz.har")
        // What was read must write and read back to the same entries.
        let again = try HAR.read(HAR.write(entries), source: "rewritten.har")
        precondition(again.count == entries.count, "a round trip keeps every entry")
        _ = StubRegistry().stubs(fromHAREntries: entries)
    } catch let error as FixtureError {
        precondition(error.jsonPath.hasPrefix("$"), "an error names a JSON path")
    } catch {
        preconditionFailure("unexpected error type \(error)")
    }
    return 0
}

/// Structural equality, numbers equal within a relative 1e-12.
private func agree(_ left: JSONValue, _ right: JSONValue) -> Bool {
    switch (left, right) {
    case let (.array(a), .array(b)): return a.count == b.count && zip(a, b).allSatisfy { agree($0, $1) }
    case let (.object(a), .object(b)): return a.count == b.count && a.allSatisfy { key, value in b[key].map { agree(value, $0) } ?? false }
    case let (.number(a), _), let (_, .number(a)):
        guard let b = (left == .number(a) ? right : left).numericValue else { return false }
        return a == b || abs(a - b) <= 1e-12 * max(abs(a), abs(b))
    default: return left == right
    }
}
