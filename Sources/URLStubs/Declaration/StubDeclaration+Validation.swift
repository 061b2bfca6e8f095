import Foundation

extension StubDeclaration {
    /// Refuses a declaration that cannot match or cannot be answered, naming the part.
    func validate(reader: DeclarationReader, at path: String = "$") throws {
        if let (at, problem) = request.firstProblem(at: "\(path).request") { throw reader.fail(at, problem) }
        guard (100...599).contains(response.status) else {
            throw reader.fail("\(path).response.status", "status \(response.status) is not an HTTP status; expected 100...599")
        }
        for (name, value) in response.headers where !StubResponse.isValidHeader(name: name, value: value) {
            throw reader.fail(
                "\(path).response.headers",
                "\(name.debugDescription): \(value.debugDescription) is not a header field (a token name; no CR, LF or NUL)")
        }
        if StubResponse.forbidsBody(response.status), let body = response.body, body != .text(""), body != .bytes(Data()) {
            throw reader.fail("\(path).response.body", "a \(response.status) response has no body in HTTP; remove the body or change the status")
        }
        if let speed = response.downloadSpeed, !(speed > 0 && speed.isFinite) {
            throw reader.fail("\(path).response.downloadSpeed", "expected kilobytes per second above 0, found \(speed)")
        }
        switch response.failure {
        case .error(let code), .afterBytes(_, let code):
            if !ResponseDefinition.isKnownURLErrorCode(code) {
                throw reader.fail("\(path).response.failure", "\(code) is not a URLError code (such as -1009, notConnectedToInternet)")
            }
        case .truncated(let bytes) where bytes < 0: throw reader.fail("\(path).response.failure", "expected 0 or more bytes")
        default: break
        }
        if let transformer = response.transformer {
            guard let registered = ResponseTransformers.transformer(named: transformer.name) else {
                let known = ResponseTransformers.names
                throw reader.fail(
                    "\(path).response.transformer",
                    "no library registered the response transformer \"\(transformer.name)\" (registered: "
                        + (known.isEmpty ? "none" : known.joined(separator: ", ")) + "); import the library that defines it")
            }
            do {
                _ = try registered.responder(for: transformer.value, base: response)
            } catch {
                throw reader.fail("\(path).response.transformer.value", "\(error)")
            }
        }
        if let priority, priority < 1 { throw reader.fail("\(path).priority", "expected a priority of 1 or more (1 answers first)") }
        if let times, times < 0 { throw reader.fail("\(path).times", "expected 0 or more") }
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
