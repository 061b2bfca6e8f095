import Foundation
import URLStubs

/// The server's own route for declarations, `/__urlstubs/declarations`: `GET` lists the
/// registry's declared stubs (their JSON form), `POST` registers one declaration or a list,
/// `DELETE` removes every declared stub (stubs made in code stay). Answers are JSON; a
/// request the route cannot take gets `{"error": "…"}` with a 4xx status.
///
/// A declaration posted here may not read a file (`"file"` body) unless the server was
/// given a folder for them: then only a relative path inside it, so no client of the port
/// reads the machine's other files through it.
struct DeclarationsRoute: ServerRoute {
    static let path = "/__urlstubs/declarations"

    let registry: StubRegistry
    let token: String?
    let files: URL?

    var pathPrefix: String { Self.path }

    func answer(method: String, target: String, headers: [(name: String, value: String)], body: Data) -> ServerRouteReply {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard path == Self.path || path == Self.path + "/" else {
            return Self.error(404, "no such route: \(path) (the declarations route is \(Self.path))")
        }
        if let token, !Self.carries(token, headers) {
            var reply = Self.error(401, "this route needs the server's token: send Authorization: Bearer <token>")
            reply.headers.append(("WWW-Authenticate", "Bearer"))
            return reply
        }
        switch method {
        case "GET", "HEAD":
            return list()
        case "POST":
            return register(body)
        case "DELETE":
            var removed = 0
            for stub in registry.stubs where stub.declaration != nil {
                if registry.remove(stub) { removed += 1 }
            }
            return Self.json(200, ["removed": .number(Double(removed))])
        default:
            var reply = Self.error(405, "\(method) is not a method of \(Self.path): use GET, POST or DELETE")
            reply.headers.append(("Allow", "GET, HEAD, POST, DELETE"))
            return reply
        }
    }

    private func list() -> ServerRouteReply {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let data = try encoder.encode(registry.declarations)
            return ServerRouteReply(status: 200, headers: [("Content-Type", "application/json")], body: data)
        } catch {
            return Self.error(500, "the declarations could not be written as JSON: \(error)")
        }
    }

    private func register(_ body: Data) -> ServerRouteReply {
        do {
            let declarations = try StubDeclaration.read(from: body, source: "POST \(Self.path)")
            for (index, declaration) in declarations.enumerated() {
                if let problem = fileProblem(declaration.response.body) {
                    let at = declarations.count > 1 ? "$[\(index)].response.file" : "$.response.file"
                    return Self.error(400, "URLStubs: POST \(Self.path), at \(at): \(problem)")
                }
            }
            let stubs = try registry.stub(declarations, relativeTo: files)
            return Self.json(201, ["registered": .number(Double(stubs.count))])
        } catch {
            return Self.error(400, "\(error)")
        }
    }

    /// Why a posted file body is refused: no folder for files, or a path leaving it.
    private func fileProblem(_ body: ResponseDefinition.Body?) -> String? {
        guard case .file(let path)? = body else { return nil }
        guard files != nil else {
            return
                "a declaration posted over HTTP may not read a file unless the server was given a folder for them (serveDeclarations(files:)); send the body as \"text\", \"json\" or \"base64\""
        }
        if path.hasPrefix("/") || path.hasPrefix("~") || path.split(separator: "/").contains("..") {
            return "the file \(path.debugDescription) must be a relative path inside the server's files folder, without \"..\""
        }
        return nil
    }

    /// `true` when a header field `Authorization` says `Bearer <token>` or `Token <token>`.
    private static func carries(_ token: String, _ headers: [(name: String, value: String)]) -> Bool {
        headers.contains { field in
            guard field.name.isSameFieldName(as: "Authorization") else { return false }
            return field.value == "Bearer \(token)" || field.value == "Token \(token)"
        }
    }

    private static func json(_ status: Int, _ members: [String: JSONValue]) -> ServerRouteReply {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(JSONValue.object(members))) ?? Data("{}".utf8)
        return ServerRouteReply(status: status, headers: [("Content-Type", "application/json")], body: data)
    }

    private static func error(_ status: Int, _ message: String) -> ServerRouteReply {
        json(status, ["error": .string(message)])
    }
}
