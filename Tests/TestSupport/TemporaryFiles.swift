import Foundation

/// A cassette path in a folder of its own under the temporary directory, not yet written:
/// parallel tests never share one. Remove `deletingLastPathComponent()` when done.
func temporaryHAR(_ name: String = "session") -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-\(UUID().uuidString)/\(name).har")
}

/// A new, empty folder of its own under the temporary directory. Remove it when done.
func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
