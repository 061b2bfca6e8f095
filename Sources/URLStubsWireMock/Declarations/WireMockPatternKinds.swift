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
enum WireMockPatternKinds {
    static let url = "wireMock.url"
    static let header = "wireMock.header"
    static let queryParameter = "wireMock.queryParameter"
    static let formParameter = "wireMock.formParameter"
    static let cookie = "wireMock.cookie"
    static let body = "wireMock.body"
    static let port = "wireMock.port"

    /// Registers every kind and the response transformer once per process.
    static let registered: Void = {
        RequestPatternKinds.register(Kind(name: url, make: urlMatcher))
        for (name, subject) in [(header, "header"), (queryParameter, "query parameter"), (formParameter, "form parameter"), (cookie, "cookie")] {
            RequestPatternKinds.register(Kind(name: name) { try valuesMatcher($0, subject: subject, kind: name) })
        }
        RequestPatternKinds.register(Kind(name: body, make: bodyMatcher))
        RequestPatternKinds.register(Kind(name: port, make: portMatcher))
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
        try JSONCoding.decoder(for: value).decode(Value.self, from: Data(value.compactJSON.utf8))
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
                case header: values = view.template.headerValues(name)
                case queryParameter: values = view.template.queryValues(name)
                case formParameter: values = view.formValues(name)
                default: values = view.template.cookieValues(name)
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
                let actual = WireMockRequestView(stub).template.port
                return actual == port ? nil : "expected port \(port), got \(actual)"
            })
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
