import Foundation
import URLStubs

/// When a ``HARRecorder`` talks to the real network and when it replays a file.
///
/// The mode written in a test is a default that one switch overrides for a whole run:
///
/// ```sh
/// URLSTUBS_RECORD=newEpisodes swift test     # every recorder records what its file lacks
/// URLSTUBS_RECORD=all swift test --filter fetchUser   # re-record one test's file
/// ```
///
/// When the variable `CI` is set (to anything) and `URLSTUBS_RECORD` is not, every recorder is
/// in `none` mode: a CI run never reaches the network by accident, and a missing recording
/// fails with `StubError.library(RecordingFailure.recordingMissing(path:reason:command:))`, whose message is the
/// command that records it (`URLSTUBS_RECORD=once swift test --filter fetchUser`).
public enum RecordMode: String, Sendable, CaseIterable {
    /// Record if the file does not exist yet, else replay it (unmatched requests follow the
    /// registry's policy).
    case once
    /// Replay only; the file must exist, and a request it does not hold fails.
    case none
    /// Replay what the file holds, record requests it does not hold, and save both.
    ///
    /// A request recorded in this run is held from then on: the same request made again (or
    /// one differing only in the recorder's volatile fields) is replayed from it, as every
    /// later run will, and never recorded twice.
    ///
    /// - Important: A request polled until its answer changes (a job's status) therefore
    ///   gets its first answer again: record such a test with `once` or `all`, which keep
    ///   every exchange, answered in turn on replay.
    case newEpisodes
    /// Always record afresh, replacing the file.
    case all

    /// The variable that overrides the mode in code: `once`, `none`, `newEpisodes` or `all`.
    static let environmentVariable = "URLSTUBS_RECORD"

    /// The mode in force and why, for the error a missing recording throws.
    static func inForce(inCode: RecordMode, environment: [String: String]) throws -> (mode: RecordMode, reason: String) {
        if let value = environment[environmentVariable] {
            guard let mode = RecordMode(rawValue: value) else { throw StubError.library(RecordingFailure.invalidRecordMode(value: value)) }
            return (mode, "\(environmentVariable)=\(value)")
        }
        if environment["CI"] != nil {
            return (.none, "CI is set and \(environmentVariable) is not")
        }
        return (inCode, "as the test says")
    }

    /// `URLSTUBS_RECORD=once swift test --filter fetchUser`, for the test named `testName`
    /// (`#function`'s `fetchUser()` or `fetchUser(api:)`, or a Swift Testing display name), in
    /// `mode`.
    static func recordingCommand(testName: String, mode: RecordMode = .once) -> String {
        let name = testName.prefix { $0 != "(" }
        let filter = name.isEmpty ? "" : " --filter " + shellQuoted(String(name))
        return "\(environmentVariable)=\(mode.rawValue) swift test\(filter)"
    }

    private static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "_.-/".unicodeScalars.contains($0) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
