// Fuzz target: the HAR reader and the replay stubs built from what it accepts.
import Foundation

/// libFuzzer's entry point: called once per generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHAR(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    // The fast JSON reader HAR uses must agree with JSONSerialization on whatever it takes.
    if let fast = JSONBytesReader.value(from: data) {
        precondition((try? JSONValue(data: data)) == fast, "the fast JSON reader and JSONSerialization agree")
    }
    do {
        let entries = try HAR.read(data, source: "fuzz.har")
        // What was read must write and read back to the same entries.
        let again = try HAR.read(HAR.write(entries), source: "rewritten.har")
        precondition(again.count == entries.count, "a round trip keeps every entry")
        _ = StubRegistry().stubs(fromHAREntries: entries)
    } catch let error as HARError {
        precondition(error.path.hasPrefix("$"), "an error names a JSON path")
    } catch {
        preconditionFailure("unexpected error type \(error)")
    }
    return 0
}
