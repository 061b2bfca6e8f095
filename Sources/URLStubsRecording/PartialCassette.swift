import Foundation
import URLStubs

/// The exchanges a recorder has recorded and not yet saved, appended one line each to
/// `<cassette>.partial` beside the cassette. Used on the recorder's writer queue only (and in
/// the recorder's `init` and `deinit`), never on a request's path.
///
/// Why a file beside the cassette, folded in at save, rather than rewriting the cassette as
/// exchanges arrive (or at an interval): a HAR file is one JSON document, so adding an exchange
/// means writing the whole document again, and recording n exchanges that way costs n² bytes
/// of writing. A line appended to this file costs the size of its exchange, whatever came
/// before, and the cassette itself only changes by an atomic replace (``HARRecorder/save()``),
/// so a crash or a kill at any moment leaves it whole: the previous version, or the new one.
///
/// The file is also the cassette's lock: a recorder holds it (`LockedFile`) while it records,
/// so a second recorder of the same cassette, in this process or another, is refused with
/// `StubError.library(RecordingFailure.cassetteInUse(path:heldBy:requestedBy:))` instead of the two overwriting each
/// other's exchanges. A file left by a run that died before saving (its lock died with it) is
/// folded into the cassette by the next recorder of that cassette, so nothing recorded is lost;
/// unless one of its exchanges failed at the network, which its save would have refused too.
///
/// Format: a first line `{"urlstubsPartialCassette":1,"recordedBy":…,"mode":…}`, then one
/// HAR entry per line (compact JSON never holds a raw newline), and a line
/// `{"urlstubsNetworkFailure":…}` for each exchange that failed at the network: a run with such
/// a line is never folded in, as its save would not have written it. A last line without its
/// newline (the process died mid-write) is left out.
///
/// Folding in is idempotent: before a save renames its cassette into place it appends
/// `{"urlstubsSaved":{"device":…,"fileNumber":…,"size":…}}`, the new cassette's file (a rename
/// keeps it). A run killed between that rename and the file's truncation left exchanges the
/// cassette already holds: the next recorder finds the cassette is that file and folds in only
/// what came after the line.
///
/// A write that fails (a full disk) empties the file down to its header at once: a partial
/// file missing an exchange is never folded in, where it would replace a good cassette with
/// part of a run. The exchanges are still in the recorder's memory, for its save.
final class PartialCassette {

    /// `<cassette>.partial`.
    static func url(of cassette: URL) -> URL {
        cassette.deletingLastPathComponent().appendingPathComponent(cassette.lastPathComponent + ".partial")
    }

    let url: URL
    private let file: LockedFile
    private let dates = HAR.entryDateFormatter()
    private let header: Data
    /// Lines appended since the last `markSaved()`.
    private var unsaved = 0
    /// A write failed: the file was emptied down to its header and takes no more lines until
    /// the next `markSaved()` (its exchanges are in the recorder's memory, for its save).
    private var failed = false

    /// What a run that died before saving left in the file: its exchanges in order, its record
    /// mode, and how many of its exchanges failed at the network.
    let leftover: Leftover

    struct Leftover {
        var entries: [HAREntry] = []
        var mode: RecordMode?
        var networkFailures = 0
        /// The saves that were about to rename their cassette into place: how many entries
        /// came before each, and the cassette's file.
        var saves: [(entriesBefore: Int, file: CassetteReplacement.WrittenFile)] = []

        /// The entries `cassette` does not hold yet, and whether folding them in replaces it
        /// (a dead `.all` run none of whose saves reached it) rather than adds to it: after the
        /// last save whose file the cassette now is, else all.
        func unsaved(in cassette: URL) -> (entries: ArraySlice<HAREntry>, replacesCassette: Bool) {
            let current = CassetteReplacement.file(at: cassette)
            if let current, let save = saves.last(where: { $0.file == current }) {
                return (entries[save.entriesBefore...], false)
            }
            return (entries[...], mode == .all)
        }
    }

    /// Takes the cassette's lock and reads what a dead run left. Call `begin()` once that is
    /// folded into the cassette.
    /// - Throws: `StubError.library(RecordingFailure.cassetteInUse(path:heldBy:requestedBy:))` when a live recorder
    ///   holds the cassette.
    init(cassette: URL, recordedBy owner: String, mode: RecordMode) throws {
        url = Self.url(of: cassette)
        do {
            try FileManager.default.createDirectory(at: cassette.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            throw FixtureError.cassetteNotWritten(
                cassette, headline: "cannot record into the cassette \(cassette.path)",
                action: "creating its folder", code: underlying?.domain == NSPOSIXErrorDomain ? Int32(underlying!.code) : EIO,
                outcome: "Nothing was recorded.", command: nil)
        }
        do {
            file = try LockedFile(path: url.path)
        } catch LockedFile.Failure.held {
            // The holder writes its name first; a holder that has not yet is "another recorder".
            let holder = Self.contents(of: url).flatMap { Self.readHeader(of: $0)?.owner } ?? "another recorder (its name not yet written)"
            throw StubError.library(RecordingFailure.cassetteInUse(path: cassette.path, heldBy: holder, requestedBy: owner))
        } catch LockedFile.Failure.failed(let code) {
            throw FixtureError.cassetteNotWritten(
                cassette, headline: "cannot record into the cassette \(cassette.path)",
                action: "creating \(url.path), where the exchanges wait until save(),", code: code, outcome: "Nothing was recorded.",
                command: nil)
        }
        let existing = Self.contents(of: url) ?? Data()
        leftover = Self.readEntries(of: existing, source: url.lastPathComponent)
        header =
            JSONValue.object([
                "urlstubsPartialCassette": .integer(1), "recordedBy": .string(owner), "mode": .string(mode.rawValue),
            ]).serialized() + Data([UInt8(ascii: "\n")])
    }

    /// Starts the file afresh: the header, no entries.
    func begin() throws {
        try file.truncate()
        try file.append(header)
    }

    /// Appends `entry` as one line. A failed write leaves the crash safety of the later
    /// exchanges to the save; it never fails the recording.
    func append(_ entry: HAREntry) {
        append(line: HAR.json(of: entry, dates: dates))
    }

    /// Notes an exchange that failed at the network (`description` is scrubbed).
    func appendNetworkFailure(_ description: String) {
        append(line: .object(["urlstubsNetworkFailure": .string(description)]))
    }

    /// Notes that the exchanges so far are saved in `cassette`, about to be renamed into place.
    func noteSaving(_ cassette: CassetteReplacement.WrittenFile) {
        append(
            line: .object([
                "urlstubsSaved": .object([
                    "device": .string(String(cassette.device)), "fileNumber": .string(String(cassette.fileNumber)),
                    "size": .string(String(cassette.size)),
                ])
            ]))
    }

    /// `true` while the file holds every exchange since the last save, and some.
    var holdsUnsavedExchanges: Bool { !failed && unsaved > 0 }

    private func append(line value: JSONValue) {
        guard !failed else { return }
        var line = value.serialized()
        line.append(UInt8(ascii: "\n"))
        do {
            try file.append(line)
            unsaved += 1
        } catch {
            // Never folded in as it is: it lacks this exchange, maybe holds half of its line.
            failed = true
            try? file.truncate()
            try? file.append(header)
        }
    }

    /// Called once the cassette holds every entry: the file goes back to its header alone.
    func markSaved() throws {
        try file.truncate()
        try file.append(header)
        unsaved = 0
        failed = false
    }

    /// Removes the file (its exchanges are saved, or a failed write emptied it) and drops the
    /// lock. When exchanges were never saved, the file stays for the next recorder of the
    /// cassette to fold in.
    func close() {
        if unsaved == 0 || failed { file.remove() }
    }

    /// The file's bytes; `nil` when it is empty or cannot be read. (An empty file is not read:
    /// corelibs' `Data(contentsOf:)` leaks a page for one.)
    private static func contents(of url: URL) -> Data? {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber
        guard let size, size.intValue > 0 else { return nil }
        return try? Data(contentsOf: url)
    }

    private static func readHeader(of data: Data) -> (owner: String, mode: RecordMode?)? {
        guard let end = data.firstIndex(of: UInt8(ascii: "\n")),
            case .object(let members)? = try? JSONValue.parsing(data[data.startIndex..<end]),
            case .string(let owner)? = members["recordedBy"]
        else { return nil }
        var mode: RecordMode?
        if case .string(let name)? = members["mode"] { mode = RecordMode(rawValue: name) }
        return (owner, mode)
    }

    private static func readEntries(of data: Data, source: String) -> Leftover {
        guard let header = readHeader(of: data) else { return Leftover() }
        var leftover = Leftover(mode: header.mode)
        // Complete lines only: the last one may have been cut by the death of its writer.
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropFirst().dropLast()
        for (index, line) in lines.enumerated() where !line.isEmpty {
            guard let value = try? JSONValue.parsing(Data(line)) else { continue }
            if case .object(let members) = value, members["urlstubsNetworkFailure"] != nil {
                leftover.networkFailures += 1
            } else if case .object(let members) = value, case .object(let saved)? = members["urlstubsSaved"] {
                func number(_ name: String) -> UInt64? {
                    if case .string(let text)? = saved[name] { return UInt64(text) }
                    return nil
                }
                if let device = number("device"), let fileNumber = number("fileNumber"), let size = number("size") {
                    let file = CassetteReplacement.WrittenFile(device: device, fileNumber: fileNumber, size: Int64(size))
                    leftover.saves.append((leftover.entries.count, file))
                }
            } else if let entry = try? HAR.entry(value, source: source, at: "line \(index + 2)") {
                leftover.entries.append(entry)
            }
        }
        return leftover
    }
}
