import Foundation
import URLStubs

/// What a recorder does with the partial file (`<cassette>.partial`) a run that ended before
/// saving left behind, and how it tells a cassette another recorder replaced.
extension HARRecorder {
    /// Writes what a run that died before saving recorded (and its saves did not) into
    /// `cassette`, as that run's save would have: after the entries already there, or in their
    /// place for `.all`.
    static func fold(_ partial: PartialCassette, into cassette: URL) throws {
        let (unsaved, replaces) = partial.leftover.unsaved(in: cassette)
        guard !unsaved.isEmpty else { return }
        var entries = Array(unsaved)
        if !replaces, FileManager.default.fileExists(atPath: cassette.path) {
            entries = try HAR.read(contentsOf: cassette) + entries
        }
        do {
            try CassetteReplacement.replace(cassette, with: HAR.write(entries)) { partial.noteSaving($0) }
            try partial.markSaved()
        } catch let failure as CassetteReplacement.Failure {
            throw FixtureError.cassetteNotWritten(
                cassette,
                headline:
                    "the exchanges a run that ended before saving left in \(partial.url.path) were not folded into the cassette \(cassette.path)",
                action: failure.action, code: failure.code,
                outcome: "The cassette was kept as it was, and the exchanges stay in \(partial.url.lastPathComponent) for the next recording.",
                command: nil)
        }
    }

    /// The file system's number of `file`: another recorder that saved it replaced it.
    static func fileNumber(of file: URL) -> UInt64? {
        ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.systemFileNumber] as? NSNumber)?.uint64Value
    }
}
