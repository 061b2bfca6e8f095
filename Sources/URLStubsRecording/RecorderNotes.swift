import Foundation
import URLStubs

/// What a ``HARRecorder`` tells the developer besides its errors: the note a replaying
/// registry's near-miss report starts with, and the warning for stubs a recorder shadows.
enum RecorderNotes {
    /// The note under a near-miss report's headline when the registry replays `cassette`: the
    /// request is not in it, and the commands that record it.
    static func notInCassette(_ cassette: URL, entries: Int, testName: String) -> String {
        let count = entries == 1 ? "1 entry" : "\(entries) entries"
        return "Not in the cassette \(cassette.path) (\(count)), which this registry replays. "
            + "If the app now makes this request, record what the cassette lacks with:\n"
            + "    \(RecordMode.recordingCommand(testName: testName, mode: .newEpisodes))\n"
            + "or record the cassette afresh with:\n"
            + "    \(RecordMode.recordingCommand(testName: testName, mode: .all))"
    }

    /// The warning printed when a recorder starts recording on a registry that already holds
    /// `stubs`: the recorder is the newest stub and matches every request, so none of them
    /// answers while it records, and nothing says so otherwise.
    static func shadowedStubs(_ stubs: [StubDescriptor], cassette: URL, location: StubLocation) -> String {
        let named = stubs.prefix(3).map { stub in stub.name.map { "\"\($0)\" (\(stub.location))" } ?? "a stub at \(stub.location)" }
        let more = stubs.count > 3 ? " and \(stubs.count - 3) more" : ""
        let count = stubs.count == 1 ? "1 stub" : "\(stubs.count) stubs"
        return ReportText.boundingLines(
            "URLStubs: record(to: \(cassette.lastPathComponent)) at \(location) starts recording on a registry that already holds "
                + "\(count) (\(named.joined(separator: ", "))\(more)). \(stubs.count == 1 ? "It does not answer" : "None of them answers") while the recorder records: "
                + "the newest matching stub answers a request, and the recorder matches every request. "
                + "Add such stubs after record(to:) to answer before the recorder (their exchanges are then not recorded), or remove them.")
    }
}
