import Foundation
import URLStubs

/// An OpenAPI 3.0 or 3.1 document, read from JSON or YAML, with its schemas compiled: what
/// ``URLStubs/StubRegistry/checkContract(_:)`` checks traffic against, and what builds stubs by
/// operation.
///
/// ```swift
/// let contract = try OpenAPIDocument(contentsOf: URL(fileURLWithPath: "openapi.yaml"))
/// registry.checkContract(contract)
/// ```
///
/// Reading resolves every `$ref` inside the document once (recursive schemas included) and
/// refuses what cannot be checked faithfully with an ``OpenAPIError`` naming the place: a
/// `$ref` to another file, a `$ref` to nothing, an invalid `pattern`, a Swagger 2.0 document.
public struct OpenAPIDocument: Sendable, CustomStringConvertible {
    /// The file's path, or the source name given.
    public let source: String
    /// The document's `openapi` field: `3.0.3`, `3.1.0`, …
    public let version: String
    /// Every operation, in the order of the paths and methods.
    public let operations: [OpenAPIOperation]

    let schemas: SchemaSet
    /// Paths of the document's `servers` (`/v1`), stripped from request paths before matching.
    let basePaths: [String]

    /// `shop.yaml (OpenAPI 3.0.3, 7 operations)`.
    public var description: String {
        "\(URL(fileURLWithPath: source).lastPathComponent) (OpenAPI \(version), \(operations.count) operations)"
    }

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Reads the document at `url`: JSON when it starts with `{` (or a YAML flow mapping),
    /// else YAML.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw OpenAPIError(source: url.path, location: "file", message: "cannot be read (\(error.localizedDescription))")
        }
        try self.init(data: data, source: url.path)
    }

    /// Reads a document from its text: JSON when it starts with `{`, else YAML. Either is
    /// read as UTF-8 only; an error names the line and column.
    public init(data: Data, source: String = "OpenAPI document") throws {
        let first = data.first { $0 != .space && $0 != .tab && $0 != .lf && $0 != .cr && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
        // `examples` maps keep their order: the first entry written is the one a stub shows.
        let read: (value: JSONValue, memberOrders: [JSONValue: [String]])
        if first == UInt8(ascii: "{") {
            do {
                read = try JSONValue.readingDocument(data, keepingMemberOrderUnder: "examples")
            } catch let problem as JSONDocumentProblem {
                // A YAML flow mapping starts with "{" too.
                guard let flow = try? YAMLReader.read(data, keepingMemberOrderUnder: "examples") else {
                    throw OpenAPIError(
                        source: source, location: "line \(problem.line), column \(problem.column)", message: "not valid JSON: \(problem.reason)")
                }
                read = flow
            }
        } else {
            do {
                read = try YAMLReader.read(data, keepingMemberOrderUnder: "examples")
            } catch let error as YAMLError {
                throw OpenAPIError(source: source, location: "line \(error.line), column \(error.column)", message: error.message)
            }
        }
        try self.init(root: read.value, source: source, examplesOrder: read.memberOrders)
    }

    /// - Parameter examplesOrder: The order in which each `examples` map lists its entries,
    ///   keyed by the map (a ``JSONValue`` object keeps none); a map missing here is taken in
    ///   the order of its names.
    init(root: JSONValue, source: String, examplesOrder: [JSONValue: [String]] = [:]) throws {
        self.source = source
        func fail(_ pointer: String, _ message: String) -> OpenAPIError {
            OpenAPIError(source: source, location: pointer, message: message)
        }
        guard let top = root.objectValue else { throw fail("#", "expected an OpenAPI document (an object), found \(root.brief)") }
        if top["swagger"] != nil {
            throw fail("#/swagger", "Swagger 2.0 documents are not supported; convert the document to OpenAPI 3")
        }
        guard let version = top["openapi"]?.stringValue else {
            throw fail("#/openapi", "expected the \"openapi\" version string (3.0.x or 3.1.x), found \(top["openapi"]?.brief ?? "nothing")")
        }
        guard version.hasPrefix("3.0") || version.hasPrefix("3.1") else {
            throw fail("#/openapi", "OpenAPI \(version) is not supported; 3.0.x and 3.1.x are")
        }
        self.version = version
        if let (pointer, reference) = ExternalReferences.first(in: root) {
            throw fail(
                pointer,
                "the $ref \"\(reference)\" points outside the document; external references are not followed (bundle the document into one file)")
        }
        var parser = OperationParser(
            compiler: SchemaCompiler(root: root, isVersion31: version.hasPrefix("3.1"), source: source), root: root,
            examplesOrder: examplesOrder)
        if let components = top["components"]?.objectValue?["schemas"]?.objectValue {
            for name in components.keys.sorted() {
                _ = try parser.compiler.compile(components[name]!, at: JSONPointer.appending("#/components/schemas", name))
            }
        }
        var operations: [OpenAPIOperation] = []
        if let paths = top["paths"] {
            guard let templates = paths.objectValue else { throw fail("#/paths", "expected an object of paths, found \(paths.brief)") }
            for template in templates.keys.sorted() {
                operations += try parser.operations(at: template, item: templates[template]!)
            }
        }
        var seen: [String: String] = [:]
        for operation in operations {
            guard let id = operation.operationId else { continue }
            if let other = seen[id] {
                throw fail(operation.pointer + "/operationId", "the operationId \"\(id)\" is also used by \(other)")
            }
            seen[id] = "\(operation.method) \(operation.pathTemplate)"
        }
        self.operations = operations
        schemas = parser.compiler.set
        basePaths = Self.basePaths(of: top["servers"])
    }

    private static func basePaths(of servers: JSONValue?) -> [String] {
        var paths: [String] = []
        for server in servers?.arrayValue ?? [] {
            guard let object = server.objectValue, var url = object["url"]?.stringValue else { continue }
            for (name, variable) in object["variables"]?.objectValue ?? [:] {
                url = url.replacingOccurrences(of: "{\(name)}", with: variable.objectValue?["default"]?.stringValue ?? "")
            }
            let path: String
            if url.hasPrefix("/") {
                path = url
            } else if let components = URLComponents(string: url) {
                path = components.path
            } else {
                continue
            }
            let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
            if !trimmed.isEmpty, !paths.contains(trimmed) { paths.append(trimmed) }
        }
        return paths
    }

    /// The operation named `operationId`.
    public func operation(_ operationId: String) throws -> OpenAPIOperation {
        if let found = operations.first(where: { $0.operationId == operationId }) { return found }
        let known = operations.compactMap(\.operationId).sorted()
        let close = known.filter { $0.lowercased().contains(operationId.lowercased()) || operationId.lowercased().contains($0.lowercased()) }
        let hint =
            close.isEmpty
            ? "its operations are \(known.prefix(20).joined(separator: ", "))" : "did you mean \(close.prefix(3).joined(separator: ", "))?"
        throw OpenAPIError(source: source, location: "#/paths", message: "no operation has the operationId \"\(operationId)\"; \(hint)")
    }

    /// What a request's method and path select.
    enum Selection {
        case operation(OpenAPIOperation, pathParameters: [String: String])
        /// The path exists, the method does not: the methods it has.
        case methodNotDocumented(template: String, methods: [String])
        case pathNotDocumented
    }

    /// The operation for `method` on `path` (a URL's path, percent-encoded): the most specific
    /// template that fits, with or without a server's base path.
    func select(method: String, path: String) -> Selection {
        var candidates = [path]
        for base in basePaths where path.hasPrefix(base + "/") || path == base {
            candidates.append(String(path.dropFirst(base.count)))
        }
        var best: (operation: OpenAPIOperation, parameters: [String: String])?
        var templateOnly: String?
        for candidate in candidates {
            let segments = (candidate.isEmpty ? "/" : candidate).split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            for operation in operations {
                guard let parameters = operation.template.match(Array(segments)) else { continue }
                guard operation.method == method else {
                    if templateOnly == nil { templateOnly = operation.pathTemplate }
                    continue
                }
                if best == nil || operation.template.specificity > best!.operation.template.specificity {
                    best = (operation, parameters)
                }
            }
            if best != nil { break }
        }
        if let best { return .operation(best.operation, pathParameters: best.parameters) }
        if let templateOnly {
            let methods = operations.filter { $0.pathTemplate == templateOnly }.map(\.method)
            return .methodNotDocumented(template: templateOnly, methods: methods)
        }
        return .pathNotDocumented
    }

    /// The violation of a request whose `method` and `path` select no operation (the path or
    /// the method is not documented); `nil` when `selection` is an operation.
    func unselected(_ selection: Selection, method: String, path: String) -> ContractViolation? {
        var violation: ContractViolation
        switch selection {
        case .operation: return nil
        case .pathNotDocumented:
            let known = Set(operations.map(\.pathTemplate)).sorted()
            let list = known.prefix(8).joined(separator: ", ") + (known.count > 8 ? ", …" : "")
            violation = ContractViolation(
                operation: "\(method) \(path)", part: "path", jsonPath: nil, schemaPath: "#/paths",
                expected: "a path the document lists (\(list))", found: path)
        case .methodNotDocumented(let template, let methods):
            violation = ContractViolation(
                operation: "\(method) \(path)", part: "method", jsonPath: nil, schemaPath: JSONPointer.appending("#/paths", template),
                expected: "a method \(template) documents (\(methods.joined(separator: ", ")))", found: method)
        }
        violation.isAboutRequest = true
        return violation
    }
}
