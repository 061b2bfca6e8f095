import Foundation

/// Where a per-test cassette lives, for the Swift Testing trait and the XCTest helper alike.
enum CassetteFile {
    /// `<folder>/<name>.har`: `folder` is `Recordings` next to the test file when `nil`, and a
    /// relative folder starts at the test file's folder.
    static func url(named name: String, in folder: String?, testFilePath: String) -> URL {
        let testFolder = URL(fileURLWithPath: testFilePath).deletingLastPathComponent()
        let folderURL: URL
        if let folder {
            folderURL = folder.hasPrefix("/") ? URL(fileURLWithPath: folder) : testFolder.appendingPathComponent(folder)
        } else {
            folderURL = testFolder.appendingPathComponent("Recordings")
        }
        return folderURL.appendingPathComponent(name + ".har")
    }
}
