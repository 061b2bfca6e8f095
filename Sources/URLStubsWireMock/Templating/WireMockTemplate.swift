import Foundation
import URLStubs

/// A WireMock response template (Handlebars), read once into a tree and rendered per request.
///
/// ```swift
/// let template = try WireMockTemplate("Hello {{request.query.name}}, it is {{now format='yyyy'}}")
/// let text = template.render(WireMockTemplateRequest(url: URL(string: "https://api.test/?name=Ada")!))
/// ```
///
/// Supported: `{{value}}`, `{{{raw}}}`, `{{!comments}}`, `\{{` for literal braces, `~`
/// whitespace control, blocks `{{#if}}`/`{{else}}`/`{{/if}}` (and `{{else if …}}`),
/// `{{#unless}}`, `{{#each}}` (with `this`, `@index`, `@key`, `@first`, `@last`), `{{#with}}`,
/// and the helpers `now`, `date`, `parseDate`, `truncateDate`, `jsonPath`, `regexExtract`,
/// `randomValue`, `math`, `size`, `lookup`, `eq`, `neq`, `gt`, `gte`, `lt`, `lte`, `and`, `or`,
/// `not`, `upper`, `lower`, `capitalize`, `trim`. A template that does not parse, or names
/// another helper, is refused when it is read, with its position.
///
/// - Important: `{{value}}` is not HTML-escaped, as in WireMock 3 (whose engine disables
///   escaping by default); set ``Environment/escapesHTML`` for WireMock 2's escaping
///   (`& < > " ' ` =`). `{{{value}}}` is never escaped.
public struct WireMockTemplate: Sendable, CustomStringConvertible {
    /// What a render reads besides the request.
    public struct Environment: Sendable {
        /// The moment `now` is.
        public var now: Date
        /// A seed for `randomValue`, so that a test can repeat a render; `nil` draws one per render.
        public var randomSeed: UInt64?
        /// The mapping's `transformerParameters`, read as `parameters.<name>`.
        public var parameters: [String: JSONValue]
        /// Whether `{{value}}` is HTML-escaped (WireMock 2); `false` is WireMock 3's default.
        public var escapesHTML: Bool

        /// An environment; by default the current moment, a fresh random seed per render, no
        /// parameters and no escaping.
        public init(now: Date = Date(), randomSeed: UInt64? = nil, parameters: [String: JSONValue] = [:], escapesHTML: Bool = false) {
            self.now = now
            self.randomSeed = randomSeed
            self.parameters = parameters
            self.escapesHTML = escapesHTML
        }
    }

    /// The template's text.
    public let description: String
    let nodes: [TemplateNode]
    /// Whether the template renders the same text whatever the request (it has no tag, or
    /// only comments and escaped braces).
    public var isStatic: Bool { staticText != nil }
    /// The text of a template without values or blocks, rendered once.
    let staticText: String?

    /// Reads `text` as a template. `source` and `jsonPath` say where it comes from, for the error.
    ///
    /// - Throws: `FixtureError` (`.malformed`) naming `source`, `jsonPath`, and the line, column
    ///   and character of the problem in the template.
    public init(_ text: String, source: String = "template", jsonPath: String = "$") throws {
        description = text
        if !Self.hasOpeningBraces(text) {
            // Text alone (a large JSON body with no tag): nothing to parse, character by character.
            nodes = text.isEmpty ? [] : [.text(text)]
            staticText = text
            return
        }
        var parser = TemplateParser(text)
        do {
            nodes = try parser.parse()
        } catch let error as TemplateSyntaxError {
            throw FixtureError.malformed(
                source, jsonPath: jsonPath,
                expected: "a response template that parses, but at line \(error.line), column \(error.column) (character \(error.offset)) "
                    + "of the template: \(error.reason)")
        }
        var constant: String? = ""
        for node in nodes {
            if case .text(let part) = node { constant? += part } else { constant = nil }
        }
        staticText = constant
    }

    /// Whether `text` holds `{{`, where every tag (and every `\{{`) starts.
    private static func hasOpeningBraces(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count > 1 else { return false }
            for index in 0..<(bytes.count - 1) where bytes[index] == UInt8(ascii: "{") && bytes[index + 1] == UInt8(ascii: "{") { return true }
            return false
        }
    }

    /// The template rendered for `request`.
    public func render(_ request: WireMockTemplateRequest, environment: Environment = Environment()) -> String {
        render(model: request, environment: environment)
    }

    /// The template rendered for any model of a request (a stubbed request's lazy view).
    func render(model request: any TemplateRequestModel, environment: Environment) -> String {
        if let staticText { return staticText }
        var renderer = TemplateRenderer(request: request, environment: environment)
        var output = ""
        output.reserveCapacity(description.utf8.count + 64)
        renderer.render(nodes, into: &output)
        return output
    }
}
