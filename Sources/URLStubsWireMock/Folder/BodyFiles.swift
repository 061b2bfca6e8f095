import Foundation

/// A folder's `__files/`, and the checks a `bodyFileName` passes before it is used: it stays
/// inside the folder, and names a regular file.
struct BodyFiles {
    struct Problem: Error {
        let text: String
    }

    let folder: URL

    /// The file `name` names.
    func resolve(_ name: String) throws -> URL {
        guard !name.isEmpty else { throw Problem(text: "expected a file name, found an empty one") }
        guard !name.hasPrefix("/"), !name.hasPrefix("~") else {
            throw Problem(text: "expected a path inside __files/, found the absolute path \"\(name)\"; WireMock serves only files under __files/")
        }
        var depth = 0
        for component in name.split(separator: "/") {
            if component == ".." { depth -= 1 } else if component != "." { depth += 1 }
            guard depth >= 0 else {
                throw Problem(text: "expected a path inside __files/, found \"\(name)\", which leaves it through \"..\"")
            }
        }
        let url = folder.appendingPathComponent(name).standardizedFileURL
        let realFolder = folder.resolvingSymlinksInPath().standardizedFileURL.path
        let real = url.resolvingSymlinksInPath().standardizedFileURL.path
        guard real.hasPrefix(realFolder + "/") else {
            throw Problem(text: "expected a file inside __files/, found \"\(name)\", a symbolic link to \(real) outside it")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isFolder) else {
            throw Problem(text: "expected a file __files/\(name), found none; WireMock would answer such a request with an error")
        }
        guard !isFolder.boolValue else { throw Problem(text: "expected a file __files/\(name), found a folder") }
        return url
    }
}
