import Foundation
import URLStubs

/// The request pattern kinds URLStubsWireMock adds to the engine's declarative vocabulary, for
/// what a ``RequestPattern`` cannot say in WireMock's words. Each value is WireMock's own
/// matcher JSON, decided by the mapping model's `evaluate` functions:
///
/// - `wireMock.url`: `{"url": …}`, `{"urlPattern": …}` or `{"urlPathTemplate": …,
///   "pathParameters": {…}}`, against the path and query as sent.
/// - `wireMock.header`, `wireMock.queryParameter`, `wireMock.formParameter`, `wireMock.cookie`:
///   `{"name": …, "pattern": <a multi-value pattern>}` (`hasExactly`, `includes`, dates,
///   numbers, `equalToJson`, `matchesJsonPath`, case-insensitive Unicode).
/// - `wireMock.body`: a body pattern (`equalToJson` with JsonUnit placeholders,
///   `matchesJsonPath` with Jayway filters, dates, numbers).
/// - `wireMock.port`: the port number.
/// - `wireMock.pathStart`: the literal start of a path pattern or template (`"/v1/orders/"`),
///   which the registry's index files the mapping under, up to its last `/`: a request is
///   offered only the mappings whose start its path has, so 1,000 path patterns cost about
///   what one does.
enum WireMockPatternKinds {
    static let url = "wireMock.url"
    static let header = "wireMock.header"
    static let queryParameter = "wireMock.queryParameter"
    static let formParameter = "wireMock.formParameter"
    static let cookie = "wireMock.cookie"
    static let body = "wireMock.body"
    static let port = "wireMock.port"
    static let pathStart = "wireMock.pathStart"

    /// Registers every kind and the response transformer once per process.
    static let registered: Void = {
        RequestPatternKinds.register(Kind(name: url, make: urlMatcher))
        for (name, subject) in [(header, "header"), (queryParameter, "query parameter"), (formParameter, "form parameter"), (cookie, "cookie")] {
            RequestPatternKinds.register(Kind(name: name) { try valuesMatcher($0, subject: subject, kind: name) })
        }
        RequestPatternKinds.register(Kind(name: body, make: bodyMatcher))
        RequestPatternKinds.register(Kind(name: port, make: portMatcher))
        RequestPatternKinds.register(Kind(name: pathStart, make: pathStartMatcher))
        ResponseTransformers.register(WireMockResponseTransformer())
    }()

    struct Kind: RequestPatternKind {
        let name: String
        let make: @Sendable (JSONValue) throws -> RequestMatcher

        func matcher(for value: JSONValue) -> RequestMatcher {
            do {
                return try make(value)
            } catch {
                return .invalid("\(name) \(value)", problem: "\(name): \(error)")
            }
        }
    }

    /// `value` read as WireMock's JSON for `type`, strictly, as a mapping file is.
    static func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
        try JSONValueDecoder.decode(Value.self, from: value)
    }

    private static func urlMatcher(_ value: JSONValue) throws -> RequestMatcher {
        let request = try decode(WireMockMapping.RequestPattern.self, from: value)
        guard let url = request.url else { throw KindProblem("expected a URL matcher, such as {\"urlPattern\": \"/users/.*\"}") }
        let description = "URL \(url.member) \(url.text)"
        let pathParameters = request.pathParameters
        return RequestMatcher(
            description,
            explaining: { stub in
                let pathAndQuery = WireMockRequestView.pathAndQuery(of: stub)
                if let parameters = url.pathParameters(in: pathAndQuery) {
                    for (name, pattern) in pathParameters.sorted(by: { $0.key < $1.key }) where !pattern.evaluate(parameters[name]) {
                        return "expected path parameter \"\(name)\" to match \(compact(pattern)), got \(parameters[name] ?? "none")"
                    }
                    return nil
                }
                return url.evaluate(pathAndQuery) ? nil : "expected \(description), got \(pathAndQuery)"
            })
    }

    private static func valuesMatcher(_ value: JSONValue, subject: String, kind: String) throws -> RequestMatcher {
        guard case .object(let members) = value, case .string(let name)? = members["name"], let patternJSON = members["pattern"] else {
            throw KindProblem("expected {\"name\": …, \"pattern\": {…}}, found \(value)")
        }
        let pattern = try decode(WireMockMapping.MultiValuePattern.self, from: patternJSON)
        let description = "\(subject) \"\(name)\" \(patternJSON.compactJSON)"
        return RequestMatcher(
            description,
            explaining: { stub in
                let view = WireMockRequestView(stub)
                let values: [String]
                switch kind {
                case header: values = view.headerValues(name)
                case queryParameter: values = view.queryValues(name)
                case formParameter: values = view.formValues(name)
                default: values = view.cookieValues(name)
                }
                return pattern.evaluate(values) ? nil : "expected \(description), got \(values.isEmpty ? "none" : values.description)"
            })
    }

    private static func bodyMatcher(_ value: JSONValue) throws -> RequestMatcher {
        let pattern = try decode(WireMockMapping.BodyPattern.self, from: value)
        let description = "body \(value.compactJSON)"
        return RequestMatcher(
            description,
            explaining: { stub in
                pattern.evaluate(stub.body) ? nil : "expected \(description), got \(stub.body.map { "\($0.count) bytes" } ?? "no body")"
            })
    }

    private static func portMatcher(_ value: JSONValue) throws -> RequestMatcher {
        guard case .integer(let port) = value else { throw KindProblem("expected a port number, found \(value)") }
        return RequestMatcher(
            "port \(port)",
            explaining: { stub in
                let actual = WireMockRequestView(stub).port
                return actual == port ? nil : "expected port \(port), got \(actual)"
            })
    }

    /// The starts of a request's path that end with a `/` other than the first
    /// (`/v1/`, `/v1/orders/` for `/v1/orders/7`): the index values of ``pathStart``.
    static let pathStartIndex = IndexKind("WireMock path start") { request in
        guard let path = request.urlPath else { return [] }
        var starts: [String] = []
        var index = path.utf8.index(after: path.utf8.startIndex)
        while index < path.utf8.endIndex {
            if path.utf8[index] == UInt8(ascii: "/") { starts.append(String(path[...index])) }
            index = path.utf8.index(after: index)
        }
        return starts
    }

    /// `prefix` up to its last `/`, when that is not the first: the value of
    /// ``pathStartIndex`` every path starting with `prefix` has.
    static func pathStartKey(_ prefix: String) -> String? {
        guard let slash = prefix.lastIndex(of: "/"), slash > prefix.startIndex else { return nil }
        return String(prefix[...slash])
    }

    private static func pathStartMatcher(_ value: JSONValue) throws -> RequestMatcher {
        guard case .string(let prefix) = value else { throw KindProblem("expected the start of a path, found \(value)") }
        let description = "path starts with \"\(prefix)\""
        return RequestMatcher(description: description, indexKey: pathStartKey(prefix).map { IndexKey(pathStartIndex, $0) }) { request in
            let actual = request.urlPath ?? ""
            return actual.hasPrefix(prefix) ? .matched : .failed("expected path starting with \"\(prefix)\", got \"\(actual)\"")
        }
    }

    static func compact(_ pattern: WireMockMapping.StringValuePattern) -> String {
        (try? JSONEncoder().encode(pattern)).map { String(decoding: $0, as: UTF8.self) } ?? "\(pattern)"
    }
}

/// Why a kind's value cannot be used.
struct KindProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
