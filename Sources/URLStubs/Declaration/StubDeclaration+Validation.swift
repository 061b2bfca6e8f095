import Foundation

extension StubDeclaration {
    /// Refuses a declaration that cannot match or cannot be answered, naming the part.
    func validate(reader: DeclarationReader, at path: String = "$") throws {
        if let (at, problem) = request.firstProblem(at: "\(path).request") { throw reader.fail(at, problem) }
        try response.validate(reader: reader, at: "\(path).response")
        for (index, following) in followingResponses.enumerated() {
            try following.validate(reader: reader, at: "\(path).followingResponses[\(index)]")
        }
        if let priority, priority < 1 { throw reader.fail("\(path).priority", "expected a priority of 1 or more (1 answers first)") }
        if let times, times < 0 { throw reader.fail("\(path).times", "expected 0 or more") }
    }

    /// Refuses a `fixture` body whose file is missing or malformed under `folder` (the current
    /// directory when `nil`), naming the closest files: found where the stub is registered,
    /// not when a request comes.
    func checkFixtures(relativeTo folder: URL?, reader: DeclarationReader, at path: String = "$") throws {
        let folder = folder ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let definitions =
            [("\(path).response", response)]
            + followingResponses.enumerated().map { ("\(path).followingResponses[\($0.offset)]", $0.element) }
        for (at, definition) in definitions {
            guard case .fixture(let name) = definition.body else { continue }
            do {
                _ = try StubResponse(
                    fixtureAt: try Fixture.url(name, inDirectory: folder), statusCode: definition.status, headers: definition.headers)
            } catch {
                throw reader.fail("\(at).body.fixture", "\(error)")
            }
        }
    }

    /// The name reports give a declaration: its name and source.
    var label: String {
        let label = [name.map { "stub \"\($0)\"" }, source.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        return label.isEmpty ? "a declaration" : label
    }

    /// Refuses a declaration made in code that cannot match or be answered.
    /// - Throws: ``StubError/invalidDeclaration(source:path:problem:)`` naming the stub.
    public func validate() throws {
        try validate(reader: DeclarationReader(source: label))
    }
}

extension ResponseDefinition {
    /// Refuses a definition that cannot be answered, naming the part under `path`.
    func validate(reader: DeclarationReader, at path: String) throws {
        guard (100...599).contains(status) else {
            throw reader.fail("\(path).status", "status \(status) is not an HTTP status; expected 100...599")
        }
        for (name, value) in headers where !StubResponse.isValidHeader(name: name, value: value) {
            throw reader.fail(
                "\(path).headers",
                "\(name.debugDescription): \(value.debugDescription) is not a header field (a token name; no CR, LF or NUL)")
        }
        if StubResponse.forbidsBody(status), let body, body != .text(""), body != .bytes(Data()) {
            throw reader.fail("\(path).body", "a \(status) response has no body in HTTP; remove the body or change the status")
        }
        if case .stream(let name) = body, name.isEmpty { throw reader.fail("\(path).body.stream", "expected the stream's name") }
        if case .fixture(let name) = body, name.isEmpty { throw reader.fail("\(path).body.fixture", "expected the fixture's file name") }
        if let speed = downloadSpeed, !(speed > 0 && speed.isFinite) {
            throw reader.fail("\(path).downloadSpeed", "expected kilobytes per second above 0, found \(speed)")
        }
        switch failure {
        case .error(let code), .afterBytes(_, let code):
            if !ResponseDefinition.isKnownURLErrorCode(code) {
                throw reader.fail("\(path).failure", "\(code) is not a URLError code (such as -1009, notConnectedToInternet)")
            }
        case .truncated(let bytes) where bytes < 0: throw reader.fail("\(path).failure", "expected 0 or more bytes")
        case .proxy(let base):
            guard let url = URL(string: base), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil,
                url.query == nil, url.fragment == nil
            else {
                throw reader.fail(
                    "\(path).failure.proxy.baseURL", "\(base.debugDescription) is not a base URL; expected http(s)://host[:port][/path], no query")
            }
        default: break
        }
        if let transformer {
            guard let registered = ResponseTransformers.transformer(named: transformer.name) else {
                let known = ResponseTransformers.names
                throw reader.fail(
                    "\(path).transformer",
                    "no library registered the response transformer \"\(transformer.name)\" (registered: "
                        + (known.isEmpty ? "none" : known.joined(separator: ", ")) + "); import the library that defines it")
            }
            do {
                _ = try registered.responder(for: transformer.value, base: self)
            } catch {
                throw reader.fail("\(path).transformer.value", "\(error)")
            }
        }
    }
}
