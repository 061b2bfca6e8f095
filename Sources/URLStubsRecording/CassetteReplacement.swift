import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import URLStubs

/// Replaces a cassette with new bytes atomically, through a temporary file of a name of its
/// own: `<cassette>.saving`, beside the cassette (a rename is atomic within one folder).
///
/// Why not Foundation's atomic write: it names its temporary file itself (hidden, a random
/// suffix), so a kill during the write left a file beside the cassette for ever, which
/// `git add .` then found. This name is known: a failed write removes its own file, and the
/// next recorder of the cassette removes one a killed save left (`removeLeftover(of:)`).
/// Only the holder of the cassette's lock (`PartialCassette`) replaces it, so one save at a
/// time writes the temporary file.
enum CassetteReplacement {
    /// A step of the replacement that failed, and the system's error number.
    struct Failure: Error {
        /// What was being done: `writing <file>`, `replacing <cassette> with <file>`.
        let action: String
        let code: Int32
    }

    /// The file a written cassette is after its write and before its rename: its device and
    /// file number (which the rename keeps) and its size.
    struct WrittenFile: Equatable {
        let device: UInt64
        let fileNumber: UInt64
        let size: Int64

        init(device: UInt64, fileNumber: UInt64, size: Int64) {
            self.device = device
            self.fileNumber = fileNumber
            self.size = size
        }

        init(_ status: stat) {
            // dev_t is signed on Apple platforms.
            self.init(device: UInt64(bitPattern: Int64(status.st_dev)), fileNumber: UInt64(status.st_ino), size: Int64(status.st_size))
        }
    }

    /// `<cassette>.saving`.
    static func temporaryURL(of cassette: URL) -> URL {
        cassette.deletingLastPathComponent().appendingPathComponent(cassette.lastPathComponent + ".saving")
    }

    /// Writes `data` to the temporary file, flushes it to the disk, calls `beforeRename` with
    /// the file written, then renames it over `cassette`. The cassette is the previous one or
    /// the new one whatever happens; a failure removes the temporary file.
    /// - Throws: A `Failure` saying which step failed; what `beforeRename` throws.
    static func replace(_ cassette: URL, with data: Data, beforeRename: (WrittenFile) throws -> Void = { _ in }) throws {
        let temporary = temporaryURL(of: cassette).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(action: "creating \(temporary)", code: errno) }
        var closed = false
        defer { if !closed { close(descriptor) } }
        do {
            // In two halves: a test kills the process between them (FileFaults).
            let half = data.count / 2
            try LockedFile.writeAll(data.prefix(half), to: descriptor, path: temporary)
            FileFaults.reach(.temporaryFileHalfWritten, savingCassette: cassette)
            try LockedFile.writeAll(data.dropFirst(half), to: descriptor, path: temporary)
            // A full disk may only show when the data reaches it.
            guard fsync(descriptor) == 0 else { throw LockedFile.Failure.failed(errno) }
        } catch LockedFile.Failure.failed(let code) {
            unlink(temporary)
            throw Failure(action: "writing \(temporary)", code: code)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(action: "writing \(temporary)", code: code)
        }
        closed = true
        close(descriptor)
        do {
            try beforeRename(WrittenFile(status))
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, cassette.path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(action: "replacing \(cassette.path) with \(temporary)", code: code)
        }
        FileFaults.reach(.cassetteReplaced, savingCassette: cassette)
    }

    /// The file at `url` as `WrittenFile` describes it; `nil` when there is none.
    static func file(at url: URL) -> WrittenFile? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        return WrittenFile(status)
    }

    /// Removes the temporary file a save that was killed left beside `cassette`.
    static func removeLeftover(of cassette: URL) {
        unlink(temporaryURL(of: cassette).path)
    }
}
