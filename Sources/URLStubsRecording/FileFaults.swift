import Foundation
import URLStubs

/// Test seams for the files a recorder writes: a disk that fills up, and points where a save
/// stops so that a test can kill the process there. Each is keyed by a folder or a cassette, so
/// parallel tests fault their own files only. Nothing sets them outside the package's tests; a
/// write then costs one lock and a lookup in an empty table.
enum FileFaults {
    /// A point in a save where `pause(at:savingCassette:_:)` can stop it.
    enum Point: Hashable, Sendable {
        /// Half of the temporary file is written: a kill here leaves it behind.
        case temporaryFileHalfWritten
        /// The cassette was replaced; the partial file still holds the exchanges it saved.
        case cassetteReplaced
    }

    private final class Table: @unchecked Sendable {
        // @unchecked: every field is used under `lock`.
        let lock = NSLock()
        var spaceLeft: [String: Int] = [:]
        var pauses: [String: [Point: @Sendable () -> Void]] = [:]

        // NSLocking.withLock needs macOS 14 / iOS 17.
        func locked<T>(_ body: (Table) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(self)
        }
    }

    private static let table = Table()

    private static func key(ofFolder folder: URL) -> String { folder.standardizedFileURL.path }

    /// Writes to files in `folder` fail with `ENOSPC` once `bytes` more have been written (a
    /// write is cut where the space ends, as on a full disk). Truncating frees nothing.
    static func limitSpace(in folder: URL, to bytes: Int) {
        table.locked { $0.spaceLeft[key(ofFolder: folder)] = bytes }
    }

    /// Ends `limitSpace(in:to:)` for `folder`.
    static func removeSpaceLimit(in folder: URL) {
        _ = table.locked { $0.spaceLeft.removeValue(forKey: key(ofFolder: folder)) }
    }

    /// Runs `action` when a save of `cassette` reaches `point` (on the recorder's writer).
    static func pause(at point: Point, savingCassette cassette: URL, _ action: @escaping @Sendable () -> Void) {
        table.locked { $0.pauses[cassette.standardizedFileURL.path, default: [:]][point] = action }
    }

    /// How many of the `count` bytes about to be written to the file at `path` fit on its disk.
    static func room(forWriting count: Int, toFileAt path: String) -> Int {
        table.locked { table in
            guard !table.spaceLeft.isEmpty else { return count }
            let folder = key(ofFolder: URL(fileURLWithPath: path).deletingLastPathComponent())
            guard let left = table.spaceLeft[folder] else { return count }
            let room = min(left, count)
            table.spaceLeft[folder] = left - room
            return room
        }
    }

    /// Runs the action set for `point` of a save of `cassette`, if any.
    static func reach(_ point: Point, savingCassette cassette: URL) {
        let action = table.locked { $0.pauses.isEmpty ? nil : $0.pauses[cassette.standardizedFileURL.path]?[point] }
        action?()
    }
}
