import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import URLStubs

/// A cassette that could not be written (its folder may not be written by this process, the
/// disk is full, the volume is read-only) is a `FixtureError` of kind `unwritable`: `source` is
/// the cassette's path, `found` what the system said, and the message says which file, what was
/// kept (the previous cassette, this run's exchanges) and what to do.
///
/// ```text
/// URLStubs: the recording /…/Recordings/fetchesTheProfile.har was not saved: writing
/// /…/fetchesTheProfile.har.saving failed: the disk is full (No space left on device). The
/// previous cassette was kept as it was. This run's 12 exchanges stay in
/// /…/fetchesTheProfile.har.partial, which the next recording of this cassette folds in
/// (delete it to drop them). Free space on the disk, then record again with:
///     URLSTUBS_RECORD=all swift test --filter fetchesTheProfile
/// ```
extension FixtureError {
    /// `headline`, then "`action` failed: " the system's error in words, then `outcome`, then
    /// what to do about that error (`command` records the cassette again).
    static func cassetteNotWritten(
        _ cassette: URL, headline: String, action: String, code: Int32, outcome: String, command: String?
    ) -> FixtureError {
        let reason = String(cString: strerror(code))
        let folder = cassette.deletingLastPathComponent().path
        let (said, remedy): (String, String)
        switch code {
        case ENOSPC, EDQUOT:
            (said, remedy) = ("the disk is full", "Free space on the disk")
        case EACCES, EPERM:
            (said, remedy) = ("this process may not write there", "Make the folder \(folder) writable by this process, or record into another folder")
        case EROFS:
            (said, remedy) = ("the volume is read-only", "Record into a folder on a writable volume")
        default:
            (said, remedy) = ("the system refused", "Check the folder \(folder)")
        }
        let then = command.map { ", then record again with:\n    \($0)" } ?? "."
        return .unwritable(
            cassette.path, reason: reason,
            explanation: ReportText.boundingLines("URLStubs: \(headline): \(action) failed: \(said) (\(reason)). \(outcome) \(remedy)\(then)"))
    }
}
