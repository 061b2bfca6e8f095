import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened for appending under an exclusive `flock`, the one place recording uses POSIX
/// calls (available alike in Glibc and Darwin).
///
/// The lock belongs to this open file: a second ``LockedFile`` of the same path, in this process
/// or another, fails to take it while this one is open, and the system drops it when the process
/// ends, however it ends (a crash, `SIGKILL`), so a file left by a dead process is never locked.
/// The descriptor is closed on `exec`, so a child process never inherits the lock.
final class LockedFile {
    /// Why a file could not be opened and locked.
    enum Failure: Error {
        /// Another open file holds the lock.
        case held
        /// The system refused: the reason (`strerror`).
        case failed(String)
    }

    let path: String
    private var descriptor: Int32

    /// Opens (creating it if need be) and locks the file at `path`.
    /// - Throws: ``Failure/held`` when another open file holds its lock.
    init(path: String) throws {
        self.path = path
        // The path may be replaced between open and lock (its holder removing it as it finishes):
        // the lock counts only on the file the path still names.
        for _ in 0..<8 {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw Failure.failed(Self.lastError()) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                close(descriptor)
                if code == EWOULDBLOCK { throw Failure.held }
                throw Failure.failed(String(cString: strerror(code)))
            }
            var opened = stat()
            var named = stat()
            if fstat(descriptor, &opened) == 0, stat(path, &named) == 0, opened.st_ino == named.st_ino, opened.st_dev == named.st_dev {
                self.descriptor = descriptor
                return
            }
            close(descriptor)
        }
        throw Failure.failed("the file kept being replaced")
    }

    deinit { close(descriptor) }

    /// Empties the file; the next ``append(_:)`` writes at its start.
    func truncate() throws {
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else { throw Failure.failed(Self.lastError()) }
    }

    /// Writes all of `data` at the end of the file.
    func append(_ data: Data) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure.failed(Self.lastError())
                }
                offset += written
            }
        }
    }

    /// Removes the file from its folder; the lock holds until this object goes away.
    func remove() {
        unlink(path)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
