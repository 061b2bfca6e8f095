import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(AddOns) import URLStubs

/// A cassette that could not be written: its folder may not be written by this process, the disk
/// is full, the volume is read-only. The message says which file, what the system said, what was
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
public struct CassetteWriteError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The cassette's path.
    public let path: String
    /// What the system said (`No space left on device`, `Permission denied`).
    public let reason: String
    /// The full explanation.
    public let description: String

    /// Same as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }

    /// `headline`, then "`action` failed: " the system's error in words, then `outcome`, then
    /// what to do about that error (`command` records the cassette again).
    init(cassette: URL, headline: String, action: String, code: Int32, outcome: String, command: String?) {
        path = cassette.path
        reason = String(cString: strerror(code))
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
        description = ReportText.boundingLines(
            "URLStubs: \(headline): \(action) failed: \(said) (\(reason)). \(outcome) \(remedy)\(then)")
    }
}
