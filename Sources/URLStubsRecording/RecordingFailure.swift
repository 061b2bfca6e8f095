import Foundation
import URLStubs

/// A recording that cannot be made or used: thrown as `StubError.library(_:)` when a recorder
/// is made or saved, or when the record mode is read.
///
/// ```swift
/// do {
///     try recorder.save()
/// } catch StubError.library(RecordingFailure.recordingFailed(_, let failed, let first, _, _)) {
///     print("\(failed) exchanges failed at the network, the first: \(first)")
/// }
/// ```
public enum RecordingFailure: LibraryFailure {
    /// The record mode in force is `RecordMode.none` and the recording does not exist;
    /// `command` records it.
    case recordingMissing(path: String, reason: String, command: String)
    /// `URLSTUBS_RECORD` holds something other than `once`, `none`, `newEpisodes` or `all`.
    case invalidRecordMode(value: String)
    /// A recorder was asked to record into the cassette at `path` while another live recorder
    /// (in this process or another) records it: `heldBy` and `requestedBy` name the two tests
    /// and the lines that made the recorders. Two recorders of one file would each write over
    /// the other's exchanges.
    case cassetteInUse(path: String, heldBy: String, requestedBy: String)
    /// A recording into the cassette at `path` was not saved: `failedExchanges` of its
    /// exchanges failed at the network (`firstFailure` is the first, scrubbed), and a cassette
    /// without them would fail every later run. `previousKept` says a cassette was there and
    /// was left as it was; `command` records it again.
    case recordingFailed(path: String, failedExchanges: Int, firstFailure: String, previousKept: Bool, command: String)

    /// The failure's number under `StubError.errorDomain` (20-22, 24).
    public var code: Int {
        switch self {
        case .recordingMissing: return 20
        case .invalidRecordMode: return 21
        case .cassetteInUse: return 22
        case .recordingFailed: return 24
        }
    }

    /// What was wrong, and what to do.
    public var description: String {
        switch self {
        case .recordingMissing(let path, let reason, let command):
            return "URLStubs: the recording \(path) does not exist, and the record mode is none (\(reason)), "
                + "so the test would have to reach the network. Record it with:\n    \(command)\nand commit the file."
        case .invalidRecordMode(let value):
            return "URLStubs: URLSTUBS_RECORD=\(value) is not a record mode; use once, none, newEpisodes or all."
        case .cassetteInUse(let path, let holder, let requester):
            return "URLStubs: \(requester) cannot record into the cassette \(path): \(holder) is recording it right now, "
                + "and two recorders of one file would each write over the other's exchanges. "
                + "Give each test its own cassette (pass a name or a folder), or record them one after the other."
        case .recordingFailed(let path, let count, let first, let previousKept, let command):
            let exchanges = count == 1 ? "1 exchange" : "\(count) exchanges"
            let kept =
                previousKept
                ? "The previous cassette was kept as it was; nothing of this run was written."
                : "No cassette was written."
            return "URLStubs: the recording \(path) was not saved: \(exchanges) failed at the network, "
                + "and a cassette without \(count == 1 ? "it" : "them") would fail later runs. The first: \(first). \(kept) "
                + "Once the server can be reached, record again with:\n    \(command)"
        }
    }
}
