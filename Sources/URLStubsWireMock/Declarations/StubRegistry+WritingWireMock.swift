import Foundation
import URLStubs

extension StubRegistry {
    /// Writes every declared stub of the registry as a WireMock folder at `root`
    /// (`mappings/` and, for file bodies, `__files/`), in the order WireMock should try them,
    /// so that WireMock, or ``stubs(fromWireMock:globalTemplating:seed:)-(URL,_,_)``, answers
    /// as the registry does.
    ///
    /// ```swift
    /// try registry.writeWireMockFolder(to: URL(fileURLWithPath: "Fixtures/recorded"))
    /// ```
    ///
    /// - Throws: `FixtureError`: `.unwritable` for a declaration WireMock's format cannot say
    ///   or a file that cannot be written, `.unreadable` for a body file that cannot be read. Stubs made from closures have no declaration and are
    ///   not written.
    public func writeWireMockFolder(to root: URL) throws {
        var entries: [(mapping: WireMockMapping, priority: Int, order: Int)] = []
        var bodyFiles: [String: Data] = [:]
        for (order, declaration) in declarations.enumerated() {
            var mapping = try WireMockMapping(declaration: declaration)
            if case .file(let path)? = declaration.response.body {
                let name = Self.bodyFileName(path)
                do {
                    bodyFiles[name] = try Data(contentsOf: URL(fileURLWithPath: path))
                } catch {
                    throw FixtureError.unreadable(path, expected: "a body file to copy into __files/ (\(error.localizedDescription))")
                }
                if case .file? = mapping.response.body { mapping.response.body = .file(name) }
            }
            entries.append((mapping, declaration.priority ?? StubDeclaration.defaultPriority, order))
        }
        let tried = entries.sorted { $0.priority != $1.priority ? $0.priority < $1.priority : $0.order > $1.order }
        try WireMockFolder.write(tried.map(\.mapping), to: root, bodyFiles: bodyFiles)
    }

    /// The name under `__files/` of a body file: its path below a `__files/` folder, else its name.
    static func bodyFileName(_ path: String) -> String {
        if let range = path.range(of: "/__files/", options: .backwards) { return String(path[range.upperBound...]) }
        return URL(fileURLWithPath: path).lastPathComponent
    }
}
