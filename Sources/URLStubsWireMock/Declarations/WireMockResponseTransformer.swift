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
        let headerTemplates = (templates?.headers ?? [:]).sorted { $0.key < $1.key }
        // The response made once; per request only its delay, headers and body change. A
        // failure or a download speed shapes the body it is made with: those are made per request.
        let made = fixed.failure == nil && fixed.downloadSpeed == nil ? fixed.makeResponse() : nil
        return { request in
            var answer = fixed
            var response = made
            if let delay {
                let time = (fixed.requestTime ?? 0) + delay.next() / 1000
                answer.requestTime = time
                response?.pacing.requestTime = max(0, time)
            }
            guard let templates else { return response ?? answer.makeResponse() }
            // One view per request, read lazily: only the parts the templates name are cut.
            let view = WireMockRequestView(request, pathTemplate: template)
            let environment = WireMockTemplate.Environment(parameters: parameters)
            var headers = HeaderFields()
            for (name, values) in headerTemplates {
                for value in values { headers.append(name: name, value: value.render(model: view, environment: environment)) }
            }
            answer.headers = headers
            response?.headers = headers
            if let body = templates.body {
                let text = body.render(model: view, environment: environment)
                answer.body = .text(text)
                response?.body = StubResponse(data: Data(text.utf8)).body
            } else if let name = templates.bodyFileName, let folder {
                let file = name.render(model: view, environment: environment)
                let url: URL
                do {
                    url = try folder.resolve(file)
                } catch {
                    throw FixtureError.unreadable(folder.folder.path + "/" + file, expected: (error as? BodyFiles.Problem)?.text ?? "\(error)")
                }
                answer.body = .file(url.path)
                response?.body = StubResponse(bodyFileAt: url).body
            }
            return response ?? answer.makeResponse()
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
