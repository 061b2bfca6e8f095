// Fuzz target: JSON merge and template patches. The input is "document\npatch".
import Foundation

/// libFuzzer's entry point: called once per generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPatch(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let parts = data.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, let document = try? JSONValue(data: Data(parts[0])), let patch = try? JSONValue(data: Data(parts[1])) else {
        return 0
    }
    let merged = document.mergePatch(patch)
    // RFC 7396: applying the same merge patch twice changes nothing more.
    precondition(merged.mergePatch(patch) == merged, "a merge patch is idempotent")
    let templated = document.templatePatch(patch)
    _ = templated.serialized()
    _ = try? JSONValue(data: merged.serialized())
    return 0
}
