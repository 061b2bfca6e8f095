import Foundation
import URLStubs

extension StubRegistry {
    /// Registers every mapping of a WireMock folder (`mappings/**/*.json` and `__files/`) as
    /// declared stubs that answer as WireMock's standalone server would: in WireMock's order
    /// (priority, then the mapping loaded last first), with its scenarios, templates, delays
    /// and faults.
    ///
    /// ```swift
    /// let registry = StubRegistry()
    /// try registry.stubs(fromWireMock: URL(fileURLWithPath: "Fixtures/wiremock"))
    /// registry.setScenarioState("checkout", to: "paid")
    /// ```
    ///
    /// - Parameters:
    ///   - folder: The folder holding `mappings/` and `__files/` (WireMock's `--root-dir`).
    ///   - globalTemplating: Render every response as a template (`--global-response-templating`).
    ///   - seed: Seeds the draws of each `delayDistribution`, so a run repeats its delays.
    /// - Returns: The stubs, in the order the files load (the last one is tried first among
    ///   equal priorities).
    /// - Throws: `FixtureError` naming each file and JSON path that cannot be read or served;
    ///   nothing is registered then.
    @discardableResult
    public func stubs(fromWireMock folder: URL, globalTemplating: Bool = false, seed: UInt64? = nil) throws -> [StubDescriptor] {
        // Registering needs a `jsonBody`'s text only: its value is not built.
        try stubs(
            fromWireMock: WireMockFolder(contentsOf: folder, globalTemplating: globalTemplating, keepsJSONBodyValues: false),
            globalTemplating: globalTemplating, seed: seed)
    }

    /// Registers the mappings of a folder already read; see ``stubs(fromWireMock:globalTemplating:seed:)-(URL,_,_)``.
    @discardableResult
    public func stubs(fromWireMock folder: WireMockFolder, globalTemplating: Bool = false, seed: UInt64? = nil) throws -> [StubDescriptor] {
        var prepared: [PreparedResponse] = []
        let declarations = try folder.declarations(globalTemplating: globalTemplating, seed: seed, keeping: &prepared)
        return try withExtendedLifetime(prepared) { try stub(declarations) }
    }
}

extension WireMockFolder {
    /// The folder's mappings as declarations, oldest first, so that registering them in order
    /// gives WireMock's order (priority, then newest first).
    ///
    /// - Throws: `FixtureError` (`.invalidFolder`) listing every mapping URLStubs cannot serve,
    ///   each with its file and JSON path.
    public func declarations(globalTemplating: Bool = false, seed: UInt64? = nil) throws -> [StubDeclaration] {
        var prepared: [PreparedResponse] = []
        return try declarations(globalTemplating: globalTemplating, seed: seed, keeping: &prepared)
    }

    /// The declarations, each templated response's templates taken from the folder (read
    /// when it was loaded) and kept in `prepared` for the registration that follows.
    func declarations(globalTemplating: Bool, seed: UInt64?, keeping prepared: inout [PreparedResponse]) throws -> [StubDeclaration] {
        let files = root.appendingPathComponent("__files")
        var declarations: [StubDeclaration] = []
        var problems: [String] = []
        for entry in mappings.sorted(by: { $0.loadIndex < $1.loadIndex }) {
            do {
                let mappingSeed = seed.map { $0 &+ UInt64(entry.loadIndex) }
                var declaration = try entry.mapping.declaration(
                    source: entry.file, files: files, globalTemplating: globalTemplating, seed: mappingSeed, templates: entry.templates,
                    jsonBodyText: entry.jsonBodyText, keeping: &prepared)
                if entry.indexInFile > 0 { declaration.source?.file = "\(entry.file) $.mappings[\(entry.indexInFile)]" }
                declarations.append(declaration)
            } catch {
                problems.append(String(describing: error))
            }
        }
        if !problems.isEmpty { throw FixtureError.invalidFolder(root.path, readAs: "WireMock folder", problems: problems) }
        return declarations
    }
}
