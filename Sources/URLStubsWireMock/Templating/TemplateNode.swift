import Foundation
import URLStubs

/// A template read once into a tree: text, values to write, and blocks.
indirect enum TemplateNode: Sendable {
    /// Text written as it is.
    case text(String)
    /// `{{value}}` (escaped when the engine escapes HTML) or `{{{value}}}` (never escaped).
    case output(TemplateExpression, escaped: Bool)
    /// `{{#helper …}}body{{else}}inverse{{/helper}}`.
    case block(HelperCall, body: [TemplateNode], inverse: [TemplateNode])
}

/// A value in a tag: a path into the model, a literal, or a helper's result.
indirect enum TemplateExpression: Sendable {
    case path(TemplatePath)
    case literal(TemplateValue)
    case call(HelperCall)
}

/// `request.query.search.[1]`, `this`, `@index`, `parameters.name`, `parts.0`.
struct TemplatePath: Sendable {
    enum Segment: Sendable, Equatable {
        case name(String)
        case index(Int)
    }

    /// `@index`, `@key`, `@first`, `@last`: the data of the innermost `each`.
    let dataName: String?
    let segments: [Segment]
    let text: String
}

/// A helper with its parameters, hash arguments and what it compiled at load.
struct HelperCall: Sendable {
    let helper: TemplateHelper
    let parameters: [TemplateExpression]
    let hash: [(name: String, value: TemplateExpression)]
    /// What a literal parameter compiled to when the template was read (a JSONPath, a regular
    /// expression, a date pattern), so that rendering never parses it.
    let compiled: CompiledArgument

    func hashValue(_ name: String) -> TemplateExpression? { hash.first { $0.name == name }?.value }
}

/// A literal argument compiled at load.
enum CompiledArgument: Sendable {
    case none
    case jsonPath(WireMockJSONPath)
    case regex(CompiledRegex)
    case dateFormat(JavaDateFormat)
}

/// An `NSRegularExpression` shared between renders (it is immutable and documented as safe to share).
final class CompiledRegex: @unchecked Sendable {
    let expression: NSRegularExpression
    let pattern: String

    init(_ pattern: String) throws {
        self.pattern = pattern
        expression = try NSRegularExpression(pattern: pattern)
    }
}

/// The helpers WireMock's templates may name. Block helpers take a body (`{{#if}}…{{/if}}`);
/// the comparison and logic helpers write `true`/`false` when used inline.
enum TemplateHelper: String, Sendable, CaseIterable {
    case now, date, parseDate, truncateDate
    case jsonPath, regexExtract, randomValue, math, size, lookup
    case eq, neq, gt, gte, lt, lte, and, or, not
    case `if`, unless, each, with
    case upper, lower, capitalize, trim

    var takesBlock: Bool {
        switch self {
        case .if, .unless, .each, .with, .eq, .neq, .gt, .gte, .lt, .lte, .and, .or, .not: return true
        default: return false
        }
    }

    var needsBlock: Bool { self == .each || self == .with || self == .unless }
}
