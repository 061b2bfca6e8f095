import Foundation
import URLStubs

/// The templates of a templated response, each read once when the mapping is loaded: its
/// body (`body`, `jsonBody` as JSON text, or the body file's content), its header values, a
/// templated `bodyFileName` and `proxyBaseUrl`.
///
/// ```swift
/// let templates = try WireMockResponseTemplates(mapping.response, source: "users.json")
/// let body = templates.body?.render(request)
/// ```
public struct WireMockResponseTemplates: Sendable {
    /// The body's template; `nil` for no body, a base64 body, or a body file whose templating
    /// `disableBodyFileTemplating` turns off.
    public let body: WireMockTemplate?
    /// Each header's values' templates, in order.
    public let headers: [String: [WireMockTemplate]]
    /// A `bodyFileName` holding a tag, rendered per request to choose the file.
    public let bodyFileName: WireMockTemplate?
    /// `proxyBaseUrl`'s template.
    public let proxyBaseUrl: WireMockTemplate?

    /// Reads the templates of `response`; `bodyFile` is its resolved body file, read now (only a
    /// templated response's file is read when loading). `source` and `jsonPath` (the mapping's
    /// place in its file, `$` or `$.mappings[2]`) name the mapping in errors.
    ///
    /// - Throws: `FixtureError` (`.malformed`) naming the file, the member's JSON path
    ///   (`$.response.headers.X-Id[0]`) and the position in the template.
    public init(_ response: WireMockMapping.ResponseDefinition, source: String, jsonPath: String = "$", bodyFile: URL? = nil) throws {
        try self.init(response, source: source, jsonPath: jsonPath, bodyFile: bodyFile, jsonBodyText: nil)
    }

    /// The templates, a `jsonBody`'s text given as cut from its file (else written from the value).
    init(_ response: WireMockMapping.ResponseDefinition, source: String, jsonPath: String, bodyFile: URL?, jsonBodyText: String?) throws {
        let base = jsonPath + ".response"
        switch response.body {
        case .text(let text)?: body = try WireMockTemplate(text, source: source, jsonPath: base + ".body")
        case .json(let json)?: body = try WireMockTemplate(jsonBodyText ?? json.compactText, source: source, jsonPath: base + ".jsonBody")
        case .file(let name)?:
            if case .bool(true)? = response.transformerParameters["disableBodyFileTemplating"] {
                body = nil
            } else if let bodyFile {
                let data: Data
                do {
                    data = try Data(contentsOf: bodyFile)
                } catch {
                    throw FixtureError.unreadable(bodyFile.path, expected: "a body file this process can read (\(error.localizedDescription))")
                }
                body = try WireMockTemplate(String(decoding: data, as: UTF8.self), source: "__files/" + name, jsonPath: "$")
            } else {
                body = nil
            }
        case .base64?, nil: body = nil
        }
        var headers: [String: [WireMockTemplate]] = [:]
        for (name, values) in response.headers {
            headers[name] = try values.enumerated().map { index, value in
                try WireMockTemplate(value, source: source, jsonPath: base + ".headers." + name + (values.count > 1 ? "[\(index)]" : ""))
            }
        }
        self.headers = headers
        if case .file(let name)? = response.body, name.contains("{{") {
            bodyFileName = try WireMockTemplate(name, source: source, jsonPath: base + ".bodyFileName")
        } else {
            bodyFileName = nil
        }
        proxyBaseUrl = try response.proxyBaseUrl.map { try WireMockTemplate($0, source: source, jsonPath: base + ".proxyBaseUrl") }
    }
}
