import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import URLStubs

/// A file opened for appending (every write goes to its end) under an exclusive `flock`. With `CassetteReplacement`, the
/// places recording uses POSIX calls (available alike in Glibc and Darwin): they say which
/// error the system gave (a full disk, a folder this process may not write), where
/// Foundation's file APIs give a generic one.
///
/// The lock belongs to this open file: a second `LockedFile` of the same path, in this process
/// or another, fails to take it while this one is open, and the system drops it when the process
/// ends, however it ends (a crash, `SIGKILL`), so a file left by a dead process is never locked.
/// The descriptor is closed on `exec`, so a child process never inherits the lock.
final class LockedFile {
    /// Why a file could not be opened and locked.
    enum Failure: Error {
        /// Another open file holds the lock.
        case held
        /// The system refused: its error number (`ENOSPC`, `EACCES`, …).
        case failed(Int32)
    }

    let path: String
    private var descriptor: Int32

    /// Opens (creating it if need be) and locks the file at `path`.
    /// - Throws: `Failure.held` when another open file holds its lock.
    init(path: String) throws {
        self.path = path
        // The path may be replaced between open and lock (its holder removing it as it finishes):
        // the lock counts only on the file the path still names.
        for _ in 0..<8 {
            let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw Failure.failed(errno) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                close(descriptor)
                if code == EWOULDBLOCK { throw Failure.held }
                throw Failure.failed(code)
            }
            var opened = stat()
            var named = stat()
            if fstat(descriptor, &opened) == 0, stat(path, &named) == 0, opened.st_ino == named.st_ino, opened.st_dev == named.st_dev {
                self.descriptor = descriptor
                return
            }
            close(descriptor)
        }
        throw Failure.failed(EAGAIN)
    }

    deinit { close(descriptor) }

    /// Empties the file; the next `append(_:)` writes at its start.
    func truncate() throws {
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else { throw Failure.failed(errno) }
    }

    /// Writes all of `data` at the end of the file.
    func append(_ data: Data) throws {
        try Self.writeAll(data, to: descriptor, path: path)
    }

    /// Writes all of `data` to `descriptor`, the file at `path`, through `FileFaults`.
    /// - Throws: `Failure.failed(_:)` with the system's error (`ENOSPC` on a full disk).
    static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        let room = FileFaults.room(forWriting: data.count, toFileAt: path)
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < room {
                let written = write(descriptor, bytes.baseAddress! + offset, room - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure.failed(errno)
                }
                offset += written
            }
        }
        if room < data.count { throw Failure.failed(ENOSPC) }
    }

    /// Removes the file from its folder; the lock holds until this object goes away.
    func remove() {
        unlink(path)
    }
}
