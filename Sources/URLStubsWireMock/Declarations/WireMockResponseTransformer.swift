import Foundation
import URLStubs

/// The `wireMock` response transformer: answers each request from a WireMock response that
/// data alone cannot answer, a templated one (`response-template`, or global templating) or
/// one with a `delayDistribution`.
///
/// Its value is `{"response": <WireMock's response object>, "templated": true, "seed": 42,
/// "urlPathTemplate": "/users/{id}", "bodyFile": "/abs/__files/x.json", "files": "/abs/__files"}`:
/// the templates are parsed once, when the declaration is registered; per request the
/// templates are rendered (`request.baseUrl` is the request's own origin, which over the
/// loopback server is the server's address) and a delay drawn.
struct WireMockResponseTransformer: ResponseTransformer {
    static let transformerName = "wireMock"
    var name: String { Self.transformerName }

    struct Options: Decodable {
        var response: JSONCoding
        var templated: Bool?
        var seed: UInt64?
        var urlPathTemplate: String?
        var bodyFile: String?
        var files: String?
    }

    func responder(for value: JSONValue, base: ResponseDefinition) throws -> @Sendable (StubRequest) throws -> StubResponse {
        let options = try WireMockPatternKinds.decode(Options.self, from: value)
        let response = try WireMockPatternKinds.decode(WireMockMapping.ResponseDefinition.self, from: options.response.value)
        let bodyFile = options.bodyFile.map { URL(fileURLWithPath: $0) }
        let templates = options.templated == true ? try WireMockResponseTemplates(response, source: "wireMock", bodyFile: bodyFile) : nil
        let folder = options.files.map { BodyFiles(folder: URL(fileURLWithPath: $0)) }
        let template = options.urlPathTemplate.map(WireMockMapping.URLMatch.urlPathTemplate)
        let delay = response.delayDistribution.map { DelayDraws($0, seed: options.seed) }
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
