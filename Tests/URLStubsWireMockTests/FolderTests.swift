import Foundation
import Testing
import URLStubs
import URLStubsWireMock

/// Reading and writing a WireMock folder (`mappings/**/*.json`, `__files/`) as WireMock's
/// standalone server reads its root directory.
@Suite("WireMock folders")
struct FolderTests {
    /// A fresh folder holding `files` (relative path: text).
    static func folder(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wiremock-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        return root
    }

    // Documented: every .json file under mappings/, in subfolders too, holding one mapping or
    // {"mappings": [...]}; other files are not mappings.
    @Test func readsNestedFilesAndMultiMappingFiles() throws {
        let root = try Self.folder([
            "mappings/a.json": #"{"name": "a", "request": {"urlPath": "/a"}}"#,
            "mappings/sub/b.json": #"{"mappings": [{"name": "b1", "request": {}}, {"name": "b2", "request": {}}]}"#,
            "mappings/notes.txt": "not a mapping",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = try WireMockFolder(contentsOf: root)
        #expect(Set(folder.mappings.map(\.mapping.name)) == ["a", "b1", "b2"])
        #expect(folder.mappings.first { $0.mapping.name == "b2" }?.file == "mappings/sub/b.json")
        #expect(folder.mappings.first { $0.mapping.name == "b2" }?.indexInFile == 1)
    }

    // WireMock orders by priority (1 first, unset = 5), then newest first (SortedConcurrent-
    // PrioritisableSet: reverse insertion order). URLStubs loads in sorted path order, so the
    // mapping loaded last (z.json; the later one within a file) is the newest.
    @Test func priorityThenNewestFirst() throws {
        let root = try Self.folder([
            "mappings/a.json": #"{"name": "a", "request": {}}"#,
            "mappings/m/b.json": #"{"mappings": [{"name": "b1", "request": {}}, {"name": "b2", "request": {}}]}"#,
            "mappings/z.json": #"{"name": "z", "request": {}}"#,
            "mappings/high.json": #"{"name": "high", "priority": 1, "request": {}}"#,
            "mappings/low.json": #"{"name": "low", "priority": 9, "request": {}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = try WireMockFolder(contentsOf: root)
        #expect(folder.mappings.map(\.mapping.name) == ["high", "z", "b2", "b1", "a", "low"])
    }

    // A bodyFileName is looked up under __files/ and kept as a URL, not read.
    @Test func bodyFilesAreReferencedNotRead() throws {
        let root = try Self.folder([
            "mappings/a.json": #"{"request": {}, "response": {"bodyFileName": "users/list.json"}}"#,
            "__files/users/list.json": "[]",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let entry = try #require(try WireMockFolder(contentsOf: root).mappings.first)
        #expect(entry.bodyFile?.path.hasSuffix("__files/users/list.json") == true)
    }

    // Decision: a bodyFileName that leaves __files/ (.., an absolute path, a symbolic link out)
    // or names no file is an error naming the mapping file and the JSON path; every problem of
    // the folder is listed at once.
    @Test func bodyFileNamesThatLeaveTheFolderAreRefused() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString).txt")
        try Data("secret".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        let root = try Self.folder([
            "mappings/up.json": #"{"request": {}, "response": {"bodyFileName": "../mappings/up.json"}}"#,
            "mappings/absolute.json": #"{"request": {}, "response": {"bodyFileName": "/etc/passwd"}}"#,
            "mappings/link.json": #"{"request": {}, "response": {"bodyFileName": "link.txt"}}"#,
            "mappings/missing.json": #"{"mappings": [{"request": {}}, {"request": {}, "response": {"bodyFileName": "nope.json"}}]}"#,
            "__files/keep.txt": "",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("__files/link.txt"), withDestinationURL: outside)
        do {
            _ = try WireMockFolder(contentsOf: root)
            Issue.record("expected an error")
        } catch let error as FixtureError {
            #expect(error.kind == .invalidFolder)
            #expect(error.found.contains("mappings/up.json: $.response.bodyFileName: expected a path inside __files/"))
            #expect(error.found.contains("mappings/absolute.json: $.response.bodyFileName: expected a path inside __files/, found the absolute path"))
            #expect(error.found.contains("mappings/link.json: $.response.bodyFileName: expected a file inside __files/"))
            #expect(error.found.contains("mappings/missing.json: $.mappings[1].response.bodyFileName: expected a file __files/nope.json"))
        }
    }

    @Test func everyBadFileIsListedWithItsPlace() throws {
        let root = try Self.folder([
            "mappings/broken.json": "{\n  \"request\": {\n}",
            "mappings/unknown.json": #"{"request": {"headers": {"Accept": {"equalsTo": "x"}}}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            _ = try WireMockFolder(contentsOf: root)
            Issue.record("expected an error")
        } catch let error as FixtureError {
            #expect(error.found.contains("mappings/broken.json: $: expected JSON text, but"))
            #expect(error.found.contains("line 3"))
            #expect(error.found.contains("mappings/unknown.json: $.request.headers.Accept.equalsTo"))
        }
    }

    @Test func aFolderWithoutMappingsIsRefused() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(throws: FixtureError.self) { try WireMockFolder(contentsOf: root) }
        #expect(throws: FixtureError.self) { try WireMockFolder(contentsOf: root.appendingPathComponent("nowhere")) }
    }

    // A templated bodyFileName is resolved per request, with the same checks.
    @Test func templatedBodyFileNamesAreCheckedWhenResolved() throws {
        let root = try Self.folder([
            "mappings/a.json":
                #"{"request": {}, "response": {"bodyFileName": "files/{{request.pathSegments.[1]}}", "transformers": ["response-template"]}}"#,
            "__files/files/a.json": "{}",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = try WireMockFolder(contentsOf: root)
        #expect(folder.mappings[0].bodyFile == nil)
        #expect(try folder.bodyFileURL(for: "files/a.json").lastPathComponent == "a.json")
        #expect(throws: FixtureError.self) { try folder.bodyFileURL(for: "files/../../mappings/a.json") }
    }

    // Thousands of mappings whose body files add up to gigabytes load without reading a body
    // (the files are sparse: reading them would take the gigabytes in memory and time).
    @Test func thousandsOfMappingsLoadWithoutTheirBodies() throws {
        let count = 2000
        let root = try Self.folder([:])
        defer { try? FileManager.default.removeItem(at: root) }
        let files = root.appendingPathComponent("__files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        for index in 0..<count {
            let body = files.appendingPathComponent("body\(index).bin")
            _ = FileManager.default.createFile(atPath: body.path, contents: nil)
            let handle = try FileHandle(forWritingTo: body)
            try handle.truncate(atOffset: 2_000_000)
            try handle.close()
            try Data(#"{"request": {"urlPath": "/item/\#(index)"}, "response": {"bodyFileName": "body\#(index).bin"}}"#.utf8)
                .write(to: root.appendingPathComponent("mappings/item\(index).json"))
        }
        let start = Date()
        let folder = try WireMockFolder(contentsOf: root)
        #expect(folder.mappings.count == count)
        #expect(Date().timeIntervalSince(start) < 30, "took \(Date().timeIntervalSince(start)) s")
    }

    // Writing keeps WireMock's JSON and the order: read back, the same mappings in the same order.
    @Test func writingAndReadingBackKeepsMappingsAndOrder() throws {
        let mappings = [
            WireMockMapping(name: "first", request: .init(method: "GET", url: .urlPath("/users")), response: .init(body: .file("users.json"))),
            WireMockMapping(name: "second", request: .init(url: .urlPath("/users")), response: .init(status: 404)),
            WireMockMapping(name: "urgent", priority: 1, request: .init(url: .url("/x?y=1"))),
        ]
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("written-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try WireMockFolder.write(mappings, to: root, bodyFiles: ["users.json": Data("[]".utf8)])
        let folder = try WireMockFolder(contentsOf: root)
        #expect(folder.mappings.map(\.mapping) == [mappings[2], mappings[0], mappings[1]])
        #expect(try Data(contentsOf: try #require(folder.mappings[1].bodyFile)) == Data("[]".utf8))
        #expect(throws: FixtureError.self) { try WireMockFolder.write([], to: root, bodyFiles: ["../escape": Data()]) }
    }

    // Templates are read at load: a templated body file's content too (unless
    // disableBodyFileTemplating), and a template that does not parse is a problem of the folder
    // naming the file, the JSON path and the position.
    @Test func templatesAreReadWhenTheFolderIs() throws {
        let root = try Self.folder([
            "mappings/a.json": #"{"request": {}, "response": {"bodyFileName": "hello.txt", "transformers": ["response-template"]}}"#,
            "mappings/b.json":
                #"{"request": {}, "response": {"bodyFileName": "hello.txt", "transformers": ["response-template"], "transformerParameters": {"disableBodyFileTemplating": true}}}"#,
            "__files/hello.txt": "Hello {{request.method}}",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = try WireMockFolder(contentsOf: root)
        let request = WireMockTemplateRequest(method: "PUT", url: URL(string: "https://a.test/")!)
        #expect(folder.mappings.first { $0.file.hasSuffix("a.json") }?.templates?.body?.render(request) == "Hello PUT")
        #expect(folder.mappings.first { $0.file.hasSuffix("b.json") }?.templates?.body == nil)
        try Data(
            #"{"mappings": [{"request": {}}, {"request": {}, "response": {"body": "{{#if x}}open", "transformers": ["response-template"]}}]}"#.utf8
        )
        .write(to: root.appendingPathComponent("mappings/c.json"))
        do {
            _ = try WireMockFolder(contentsOf: root)
            Issue.record("expected an error")
        } catch let error as FixtureError {
            #expect(
                error.found.contains(
                    "mappings/c.json: $.mappings[1].response.body: expected a response template that parses, but at line 1, column 1"))
        }
    }
}
