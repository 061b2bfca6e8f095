import Foundation
import URLStubs

/// WireMock's admin API (`/__admin/…`) over a registry, as a handler not bound to a socket:
/// a transport hands it each request under `/__admin` and sends back what it returns. The
/// routes, bodies and statuses are WireMock 3's, so its clients (curl, Python's `wiremock`
/// package, a Swift client in a UI test) work against it unchanged.
///
/// ```swift
/// let admin = WireMockAdmin(registry: registry)
/// let reply = admin.handle(method: "POST", path: "/__admin/mappings", body: Data(#"""
///     {"request": {"urlPath": "/users"}, "response": {"status": 200, "body": "[]"}}
///     """#.utf8))
/// reply.status   // 201, the mapping with its id
/// ```
///
/// Mappings made through it answer at once. `POST /__admin/mappings/reset` and
/// `POST /__admin/reset` bring back the declarations the registry held when the handler was
/// made (WireMock's mappings from disk).
///
/// - Important: With a `token`, every request must carry `Authorization: Token <token>` (or
///   `Bearer <token>`); others get a `401`.
public final class WireMockAdmin: @unchecked Sendable {
    /// What the handler answers: a status, headers and a body (JSON, or empty).
    public struct Reply: Sendable, Equatable {
        /// The HTTP status.
        public var status: Int
        /// The header fields.
        public var headers: [String: String]
        /// The body.
        public var body: Data

        /// A reply.
        public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// The largest request body read, in bytes; larger ones get a `413`.
    public static let defaultBodyLimit = 10 << 20

    let registry: StubRegistry
    let token: String?
    let bodyLimit: Int
    let files: URL?
    let defaults: [StubDeclaration]
    let lock = NSLock()
    /// The ids WireMock shows for stubs whose declarations carry none, made once per stub.
    var assignedIDs: [ObjectIdentifier: String] = [:]
    /// Each stub's declared id, read once: a `POST` looks every stub's up.
    var declaredIDs: [ObjectIdentifier: DeclaredID] = [:]
    /// `fixedDelay` of `/__admin/settings`, in milliseconds.
    var fixedDelay: Int?

    /// A handler over `registry`.
    ///
    /// - Parameters:
    ///   - registry: The registry whose stubs, journal and scenarios the API reads and changes.
    ///   - token: When given, the token every request must carry.
    ///   - files: The `__files/` folder where `bodyFileName` of mappings posted is found.
    ///   - bodyLimit: The largest request body read.
    public init(registry: StubRegistry, token: String? = nil, files: URL? = nil, bodyLimit: Int = WireMockAdmin.defaultBodyLimit) {
        self.registry = registry
        self.token = token
        self.files = files
        self.bodyLimit = bodyLimit
        defaults = registry.declarations
    }

    /// Answers one admin request. `path` starts with `/__admin`; `query` is the text after
    /// `?`, if any.
    public func handle(method: String, path: String, query: String? = nil, headers: [String: String] = [:], body: Data = Data()) -> Reply {
        if let token {
            let sent = headers.first { $0.key.caseInsensitiveCompare("Authorization") == .orderedSame }?.value ?? ""
            guard sent == "Token \(token)" || sent == "Bearer \(token)" else {
                return Self.error(401, "Unauthorized", "the admin API needs the header Authorization: Token <token>")
            }
        }
        guard body.count <= bodyLimit else {
            return Self.error(413, "Request too large", "the body has \(body.count) bytes; the admin API reads at most \(bodyLimit)")
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.first == "__admin" else { return Self.notFound(path) }
        let route = Array(parts.dropFirst())
        let verb = method.uppercased()
        lock.lock(); defer { lock.unlock() }
        do {
            switch (verb, route.first) {
            case (_, "mappings"): return try mappings(verb, Array(route.dropFirst()), body: body)
            case (_, "requests"): return try requests(verb, Array(route.dropFirst()), query: query, body: body)
            case ("POST", "near-misses") where route.dropFirst() == ["request"]: return try nearMisses(body)
            case (_, "scenarios"): return try scenarios(verb, Array(route.dropFirst()), body: body)
            case ("POST", "reset") where route.count == 1:
                resetMappings()
                registry.resetJournal()
                registry.resetScenarioState()
                return Reply(status: 200)
            case (_, "settings") where route.count == 1: return try settings(verb, body: body)
            default: return Self.notFound(path)
            }
        } catch let problem as AdminProblem {
            return problem.reply
        } catch {
            return Self.error(422, "Error parsing JSON", "\(error)")
        }
    }

    // MARK: Replies

    /// A JSON reply, written compactly with members sorted (`JSONSerialization`, which
    /// `serialized()` goes through, costs more than the rest of a `POST /__admin/mappings`).
    static func json(_ value: JSONValue, status: Int = 200) -> Reply {
        Reply(status: status, headers: ["Content-Type": "application/json"], body: Data(value.compactJSON.utf8))
    }

    /// WireMock's error body: `{"errors": [{"code": …, "title": …, "detail": …}]}`.
    static func error(_ status: Int, _ title: String, _ detail: String, code: Int? = nil, pointer: String? = nil) -> Reply {
        var error: [String: JSONValue] = ["code": .integer(code ?? status), "title": .string(title), "detail": .string(detail)]
        if let pointer { error["source"] = .object(["pointer": .string(pointer)]) }
        return json(.object(["errors": .array([.object(error)])]), status: status)
    }

    static func notFound(_ path: String) -> Reply {
        error(404, "Not found", "no admin route \(path)")
    }

    /// The request body as JSON, or WireMock's `422` for text that is not JSON.
    static func parse(_ body: Data) throws -> JSONValue {
        do {
            return try JSONValue(data: body)
        } catch {
            throw AdminProblem(reply: Self.error(422, "Error parsing JSON", "the body is not JSON: \(error)", code: 10, pointer: "/"))
        }
    }
}

/// A reply that ends a route early.
struct AdminProblem: Error {
    let reply: WireMockAdmin.Reply
}
