import Foundation
import URLStubs

/// The `wireMock` response transformer: answers each request from a WireMock response that
/// data alone cannot answer, a templated one (`response-template`, or global templating) or
/// one with a `delayDistribution`.
///
/// Its value is `{"response": <WireMock's response object>, "templated": true, "seed": 42,
/// "urlPathTemplate": "/users/{id}", "bodyFile": "/abs/__files/x.json", "files": "/abs/__files",
/// "prepared": "<token>"}`: the templates are parsed once, when the mapping is read (the token
/// finds them again while they are alive, see ``PreparedResponses``); per request the
/// templates are rendered (`request.baseUrl` is the request's own origin, which over the
/// loopback server is the server's address) and a delay drawn.
struct WireMockResponseTransformer: ResponseTransformer {
    static let transformerName = "wireMock"
    var name: String { Self.transformerName }

    /// The response `json` stands for, decoded and its templates parsed: for a value no live
    /// ``PreparedResponse`` was made for.
    static func prepare(_ json: JSONValue, templated: Bool, bodyFile: URL?) throws -> PreparedResponse {
        let response = try WireMockPatternKinds.decode(WireMockMapping.ResponseDefinition.self, from: json)
        let templates = templated ? try WireMockResponseTemplates(response, source: "wireMock", bodyFile: bodyFile) : nil
        return PreparedResponse(response: response, templates: templates, json: json)
    }

    func responder(for value: JSONValue, base: ResponseDefinition) throws -> @Sendable (StubRequest) throws -> StubResponse {
        guard case .object(let options) = value, let responseJSON = options["response"] else {
            throw KindProblem("expected {\"response\": <a WireMock response>, …}, found \(value.compactJSON)")
        }
        func text(_ name: String) -> String? {
            if case .string(let text)? = options[name] { return text }
            return nil
        }
        let bodyFile = text("bodyFile").map { URL(fileURLWithPath: $0) }
        let prepared =
            try PreparedResponses.prepared(for: options)
            ?? Self.prepare(responseJSON, templated: options["templated"] == .bool(true), bodyFile: bodyFile)
        let response = prepared.response
        let templates = prepared.templates
        let folder = text("files").map { BodyFiles(folder: URL(fileURLWithPath: $0)) }
        let template = text("urlPathTemplate").map(WireMockMapping.URLMatch.urlPathTemplate)
        var seed: UInt64?
        if case .integer(let number)? = options["seed"] { seed = UInt64(bitPattern: Int64(number)) }
        let delay = response.delayDistribution.map { DelayDraws($0, seed: seed) }
        let fixed = { () -> ResponseDefinition in
            var fixed = base
            fixed.transformer = nil
            return fixed
        }()
        let parameters = response.transformerParameters
        return { request in
            var answer = fixed
            if let delay { answer.requestTime = (answer.requestTime ?? 0) + delay.next() / 1000 }
            if let templates {
                let pathAndQuery = WireMockRequestView(request).template.url
                let view = WireMockRequestView(request, pathParameters: template?.pathParameters(in: pathAndQuery) ?? [:])
                let environment = WireMockTemplate.Environment(parameters: parameters)
                var headers = HeaderFields()
                for name in templates.headers.keys.sorted() {
                    for value in templates.headers[name]! { headers.append(name: name, value: value.render(view.template, environment: environment)) }
                }
                answer.headers = headers
                if let body = templates.body {
                    answer.body = .text(body.render(view.template, environment: environment))
                } else if let name = templates.bodyFileName, let folder {
                    let file = name.render(view.template, environment: environment)
                    do {
                        answer.body = .file(try folder.resolve(file).path)
                    } catch {
                        throw FixtureError.unreadable(folder.folder.path + "/" + file, expected: (error as? BodyFiles.Problem)?.text ?? "\(error)")
                    }
                }
            }
            return answer.makeResponse()
        }
    }
}

/// Delays drawn from a distribution, one per request, from a generator seeded once (so a
/// seeded run draws the same delays in the same order).
final class DelayDraws: @unchecked Sendable {
    private let lock = NSLock()
    private let distribution: WireMockMapping.DelayDistribution
    private var generator: SplitMix64

    init(_ distribution: WireMockMapping.DelayDistribution, seed: UInt64?) {
        self.distribution = distribution
        generator = SplitMix64(seed: seed ?? UInt64.random(in: .min ... .max))
    }

    /// The next delay, in milliseconds.
    func next() -> Double {
        lock.lock(); defer { lock.unlock() }
        return max(0, distribution.sample(using: &generator))
    }
}
