import Foundation
import URLStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ContractReport {
    /// What a check of declarations made of one of them: the operation it stands for, or
    /// none (``ContractReport/notChecked`` says why), and its findings.
    ///
    /// ```swift
    /// for result in contract.check(declarations).declarations {
    ///     print(result)   // "user" (Stubs/users.json): getUser (GET /users/{id})
    /// }
    /// ```
    public struct DeclarationResult: Sendable, CustomStringConvertible {
        /// The declaration, as checked.
        public let declaration: StubDeclaration
        /// Its name and source (`"user" (Stubs/users.json:3)`), or its position in the list
        /// when it has no name (`declaration 2 (Stubs/users.json)`).
        public let subject: String
        /// The operation it stands for; `nil` when its method and path tie it to none.
        public let operation: OpenAPIOperation?
        /// Its violations.
        public let findings: [Finding]

        /// `subject: operation`, or `subject: no operation`.
        public var description: String { "\(subject): \(operation.map(\.description) ?? "no operation")" }
    }
}

extension OpenAPIDocument {
    /// Checks declared stubs against the document without sending a request. Each
    /// declaration is tied to the operation its method and path stand for (an exact path or a
    /// template as a request's path selects one; a prefix or a regular expression when exactly
    /// one operation's path fits it); then its status, `Content-Type` and body (JSON or text;
    /// a `file` body is read from `folder`) are checked against that operation's responses,
    /// and the request parts the pattern pins (path values of an exact path, query parameters
    /// and headers given with `equalTo`, a JSON body pattern) against its parameters and
    /// request body. A declaration tied to no operation is listed in
    /// ``ContractReport/notChecked``, with the reason.
    ///
    /// ```swift
    /// let url = URL(fileURLWithPath: "Stubs/pets.json")
    /// let declarations = try StubDeclaration.read(from: Data(contentsOf: url), source: "Stubs/pets.json")
    /// let report = contract.check(declarations, relativeTo: url.deletingLastPathComponent())
    /// #expect(report.isSuccess, "\(report)")
    /// ```
    ///
    /// - Parameters:
    ///   - declarations: The stubs, as data.
    ///   - folder: Where a relative `file` body is found (the current directory when `nil`),
    ///     as `registry.stub(_:relativeTo:)` finds it.
    /// - Returns: The findings, each naming the declaration, the JSON path of the part to fix
    ///   and the operation; and ``ContractReport/declarations``, what each one stands for.
    public func check(_ declarations: [StubDeclaration], relativeTo folder: URL? = nil) -> ContractReport {
        var results: [ContractReport.DeclarationResult] = []
        var notChecked: [String] = []
        var checked = 0
        for (index, declaration) in declarations.enumerated() {
            let subject = Self.subject(of: declaration, index: index)
            let location = declaration.source.map { StubLocation(fileID: $0.file, filePath: $0.file, line: $0.line ?? 0) }
            func finding(_ violation: ContractViolation, at path: String) -> ContractReport.Finding {
                var finding = ContractReport.Finding(subject: subject, location: location, violation: violation)
                finding.declarationPath = path
                return finding
            }
            var operation: OpenAPIOperation?
            var findings: [ContractReport.Finding] = []
            switch tie(declaration.request) {
            case .untied(let reason):
                notChecked.append("\(subject): tied to no operation: \(reason)")
            case .broken(let violation, let path):
                findings.append(finding(violation, at: path))
            case .operation(let tied, let pathParameters):
                operation = tied
                findings += pinnedRequestViolations(declaration.request, tied, pathParameters: pathParameters).map { finding($0.0, at: $0.1) }
                let responses =
                    [("$.response", declaration.response)]
                    + declaration.followingResponses.enumerated().map { ("$.followingResponses[\($0.offset)]", $0.element) }
                var anyChecked = false
                for (path, definition) in responses {
                    switch responseViolations(of: definition, tied, relativeTo: folder, at: path) {
                    case .checked(let violations):
                        anyChecked = true
                        findings += violations.map { finding($0.0, at: $0.1) }
                    case .notChecked(let reason):
                        notChecked.append("\(subject)" + (responses.count > 1 ? " (\(path))" : "") + ": \(reason)")
                    }
                }
                if anyChecked { checked += 1 }
            }
            results.append(ContractReport.DeclarationResult(declaration: declaration, subject: subject, operation: operation, findings: findings))
        }
        var report = ContractReport(source: source, findings: results.flatMap(\.findings), notChecked: notChecked, checkedCount: checked)
        report.declarations = results
        return report
    }

    /// Checks the stubs of `registry` that data can say (`StubRegistry.declarations`)
    /// as ``check(_:relativeTo:)`` does; a stub that a closure decides is not among them.
    ///
    /// ```swift
    /// try registry.stub(StubDeclaration.read(from: data, source: "Stubs/pets.json"))
    /// #expect(contract.check(declarationsOf: registry).isSuccess)
    /// ```
    public func check(declarationsOf registry: StubRegistry, relativeTo folder: URL? = nil) -> ContractReport {
        check(registry.declarations, relativeTo: folder)
    }

    /// `"name" (file:line)`, else the `id`, else the position in the list.
    static func subject(of declaration: StubDeclaration, index: Int) -> String {
        let origin = declaration.source.map { " (\($0))" } ?? ""
        if let name = declaration.name ?? declaration.id { return "\"\(name)\"\(origin)" }
        return "declaration \(index)\(origin)"
    }

    enum ResponseCheck {
        case checked([(ContractViolation, String)])
        case notChecked(String)
    }

    /// The violations of `definition` against `operation`'s responses, each with the
    /// declaration's JSON path of the part to fix.
    private func responseViolations(of definition: ResponseDefinition, _ operation: OpenAPIOperation, relativeTo folder: URL?, at prefix: String)
        -> ResponseCheck
    {
        if let transformer = definition.transformer {
            return .notChecked("its response is made for each request by the transformer \"\(transformer.name)\"")
        }
        if case .stream(let name) = definition.body {
            return .notChecked("its body arrives over time from the stream \"\(name)\"")
        }
        let response = definition.makeResponse(relativeTo: folder)
        guard response.sendsHTTPResponse else { return .notChecked("it fails (\(definition.failureWords)) rather than answer") }
        if case .file(let path) = definition.body, let url = response.body.fileURL, (try? Data(contentsOf: url)) == nil {
            let violation = ContractViolation(
                operation: operation.description, part: "response \(definition.status) body", jsonPath: nil, schemaPath: nil,
                expected: "a file to read (\"\(path)\")", found: "none at \(url.path)")
            return .checked([(violation, "\(prefix).body.file")])
        }
        let exchange = Self.exchange(of: response, method: operation.method, path: operation.template.filled { _ in "1" })
        // A JSON body brings its own Content-Type unless the headers give one.
        var contentTypeAt = "\(prefix).headers"
        if case .json = definition.body, !definition.headers.contains(name: "Content-Type") { contentTypeAt = "\(prefix).body" }
        return .checked(
            responseViolations(exchange, operation).map { violation in
                let at: String
                switch violation.part {
                case "status": at = "\(prefix).status"
                case let part where part.hasSuffix("Content-Type"): at = contentTypeAt
                default: at = "\(prefix).body"
                }
                return (violation, at)
            })
    }
}

extension ResponseDefinition {
    /// The failure in a report's words.
    fileprivate var failureWords: String {
        switch failure {
        case .error(let code): return "URLError \(code)"
        case .afterBytes(let bytes, let code): return "URLError \(code) after \(bytes) bytes"
        case .truncated(let bytes): return "truncated after \(bytes) bytes"
        case .never: return "never answers"
        case .passthrough: return "passes through to the network"
        case .fault(let fault): return fault.rawValue
        case .proxy(let base): return "passes through to \(base)"
        case nil: return "no failure"
        }
    }
}
