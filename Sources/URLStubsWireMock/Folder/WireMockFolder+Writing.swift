import Foundation
import URLStubs

extension WireMockFolder {
    /// Writes `mappings` as a WireMock folder at `root`: one file per mapping under `mappings/`
    /// (WireMock's own JSON, pretty-printed) and each of `bodyFiles` under `__files/`.
    ///
    /// Files are named so that reading the folder back gives the mappings in the order given,
    /// for mappings of the same priority (the first wins, as it does when WireMock tries them):
    /// the first of three is written `0003-get-users.json`, which sorts, and so loads, last.
    ///
    /// ```swift
    /// try WireMockFolder.write(folder.mappings.map(\.mapping), to: copy, bodyFiles: ["users.json": body])
    /// ```
    ///
    /// - Throws: `FixtureError`: `.unwritable` when a file cannot be written;
    ///   `.unreadable` when a body file's name leaves `__files/`.
    public static func write(_ mappings: [WireMockMapping], to root: URL, bodyFiles: [String: Data] = [:]) throws {
        let manager = FileManager.default
        let mappingsFolder = root.appendingPathComponent("mappings")
        let filesFolder = root.appendingPathComponent("__files")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        let width = max(4, String(mappings.count).count)
        func attempt(_ path: URL, _ body: () throws -> Void) throws {
            do {
                try body()
            } catch {
                throw FixtureError.unwritable(
                    path.path, reason: error.localizedDescription,
                    explanation: "URLStubs: could not write \(path.path) (\(error.localizedDescription)); the files written before it are kept")
            }
        }
        try attempt(mappingsFolder) { try manager.createDirectory(at: mappingsFolder, withIntermediateDirectories: true) }
        for (position, mapping) in mappings.enumerated() {
            let number = String(mappings.count - position)
            let name = String(repeating: "0", count: width - number.count) + number + "-" + fileStem(for: mapping) + ".json"
            let url = mappingsFolder.appendingPathComponent(name)
            try attempt(url) { try encoder.encode(mapping).write(to: url, options: .atomic) }
        }
        for name in bodyFiles.keys.sorted() {
            guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
                throw FixtureError.unreadable(filesFolder.path + "/" + name, expected: "a body file name inside __files/ (no \"..\", not absolute)")
            }
            let url = filesFolder.appendingPathComponent(name)
            try attempt(url) {
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try bodyFiles[name]!.write(to: url, options: .atomic)
            }
        }
    }

    /// `get-users-orders` for `GET /users/orders`, or the mapping's name, in letters, digits
    /// and dashes, at most 60 characters.
    static func fileStem(for mapping: WireMockMapping) -> String {
        let source = mapping.name ?? "\(mapping.request.method) \(mapping.request.url.map(\.text) ?? "any")"
        var stem = ""
        for character in source.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                stem.append(character)
            } else if stem.last != "-" {
                stem.append("-")
            }
        }
        let trimmed = stem.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return trimmed.isEmpty ? "mapping" : String(trimmed.prefix(60))
    }
}
