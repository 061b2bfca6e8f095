import Foundation
import URLStubs

/// One render of a template: the request, the environment, the contexts of the blocks it is
/// in, the variables helpers assigned, and a random generator. Made per render, never shared.
struct TemplateRenderer {
    let request: any TemplateRequestModel
    let environment: WireMockTemplate.Environment
    /// Seeded on first use: most templates draw nothing, and a seed from the system costs a call.
    private var generator: SplitMix64?
    /// `this` of each enclosing `each`/`with`, innermost last, with the `each`'s data.
    var contexts: [(value: TemplateValue, data: [String: TemplateValue])] = []
    /// Variables assigned by `regexExtract … 'name'`.
    var variables: [String: TemplateValue] = [:]
    /// The request body read as JSON once per render, for `jsonPath`.
    var bodyJSON: JSONValue??

    init(request: any TemplateRequestModel, environment: WireMockTemplate.Environment) {
        self.request = request
        self.environment = environment
    }

    /// The render's random generator, seeded with the environment's seed, else a fresh one.
    var random: SplitMix64 {
        mutating get {
            if let generator { return generator }
            let seeded = SplitMix64(seed: environment.randomSeed ?? UInt64.random(in: 0...UInt64.max))
            generator = seeded
            return seeded
        }
        set { generator = newValue }
    }

    mutating func render(_ nodes: [TemplateNode], into output: inout String) {
        for node in nodes {
            switch node {
            case .text(let text): output += text
            case .output(let expression, let escaped):
                let value = evaluate(expression)
                if escaped, environment.escapesHTML {
                    Self.escapeHTML(value.text, into: &output)
                } else {
                    value.write(into: &output)
                }
            case .block(let call, let body, let inverse): renderBlock(call, body: body, inverse: inverse, into: &output)
            }
        }
    }

    /// Handlebars' HTML escaping: `& < > " ' ` =`.
    static func escapeHTML(_ text: String, into output: inout String) {
        for character in text.unicodeScalars {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#x27;"
            case "`": output += "&#x60;"
            case "=": output += "&#x3D;"
            default: output.unicodeScalars.append(character)
            }
        }
    }

    private mutating func renderBlock(_ call: HelperCall, body: [TemplateNode], inverse: [TemplateNode], into output: inout String) {
        switch call.helper {
        case .each:
            let items: [(TemplateValue, [String: TemplateValue])]
            switch evaluate(call.parameters[0]) {
            case .list(let values): items = Self.indexed(values)
            case .multiple(let values): items = Self.indexed(values.map(TemplateValue.string))
            case .json(.array(let values)): items = Self.indexed(values.map(TemplateValue.json))
            case .json(.object(let members)):
                let keys = members.keys.sorted()
                items = keys.enumerated().map { index, key in
                    (
                        .json(members[key]!),
                        ["key": .string(key), "index": .integer(index), "first": .bool(index == 0), "last": .bool(index == keys.count - 1)]
                    )
                }
            default: items = []
            }
            if items.isEmpty { return render(inverse, into: &output) }
            for (value, data) in items {
                contexts.append((value, data))
                render(body, into: &output)
                contexts.removeLast()
            }
        case .with:
            let value = evaluate(call.parameters[0])
            guard value.isTruthy else { return render(inverse, into: &output) }
            contexts.append((value, contexts.last?.data ?? [:]))
            render(body, into: &output)
            contexts.removeLast()
        case .unless:
            render(evaluate(call.parameters[0]).isTruthy ? inverse : body, into: &output)
        default:
            render(callHelper(call).isTruthy ? body : inverse, into: &output)
        }
    }

    private static func indexed(_ values: [TemplateValue]) -> [(TemplateValue, [String: TemplateValue])] {
        values.enumerated().map { index, value in
            (value, ["index": .integer(index), "first": .bool(index == 0), "last": .bool(index == values.count - 1)])
        }
    }

    mutating func evaluate(_ expression: TemplateExpression) -> TemplateValue {
        switch expression {
        case .literal(let value): return value
        case .path(let path): return resolve(path)
        case .call(let call): return callHelper(call)
        }
    }

    // MARK: Paths

    func resolve(_ path: TemplatePath) -> TemplateValue {
        if let dataName = path.dataName {
            return contexts.last?.data[dataName] ?? .null
        }
        guard case .name(let first)? = path.segments.first else {
            // `this`, or a path starting with an index: the current context.
            return Self.member(path.segments, of: contexts.last?.value ?? .null, request: request).resolvedText(request)
        }
        var start: TemplateValue
        var rest = path.segments.dropFirst()
        switch first {
        case "request": start = .request(.root)
        case "parameters": start = .json(.object(environment.parameters))
        default:
            if let variable = variables[first] {
                start = variable
            } else if let context = contexts.last?.value {
                start = context
                rest = path.segments[...]
            } else {
                return .null
            }
        }
        return Self.member(Array(rest), of: start, request: request).resolvedText(request)
    }

    static func member(_ segments: [TemplatePath.Segment], of value: TemplateValue, request: any TemplateRequestModel) -> TemplateValue {
        var current = value
        for segment in segments {
            current = step(segment, of: current, request: request)
            if case .null = current { return .null }
        }
        return current
    }

    /// One step into a value: a member, an index (a negative one counts as WireMock's
    /// `ListOrSingle` does: `-1` is the second to last), `first`, `last`.
    static func step(_ segment: TemplatePath.Segment, of value: TemplateValue, request: any TemplateRequestModel) -> TemplateValue {
        switch (value, segment) {
        case (.request(let part), _): return requestMember(part, segment, request: request)
        case (.multiple(let values), .index(let index)):
            let position = index < 0 ? values.count - 1 + index : index
            return values.indices.contains(position) ? .string(values[position]) : .null
        case (.multiple(let values), .name("first")): return values.first.map(TemplateValue.string) ?? .null
        case (.multiple(let values), .name("last")): return values.last.map(TemplateValue.string) ?? .null
        case (.list(let values), .index(let index)):
            let position = index < 0 ? values.count - 1 + index : index
            return values.indices.contains(position) ? values[position] : .null
        case (.list(let values), .name("first")): return values.first ?? .null
        case (.list(let values), .name("last")): return values.last ?? .null
        case (.json(.array(let items)), .index(let index)):
            let position = index < 0 ? items.count + index : index
            return items.indices.contains(position) ? .json(items[position]) : .null
        case (.json(.object(let members)), .name(let name)): return members[name].map(TemplateValue.json) ?? .null
        case (.json(.object(let members)), .index(let index)): return members[String(index)].map(TemplateValue.json) ?? .null
        default: return .null
        }
    }

    private static func requestMember(_ part: TemplateValue.RequestPart, _ segment: TemplatePath.Segment, request: any TemplateRequestModel)
        -> TemplateValue
    {
        switch (part, segment) {
        case (.root, .name(let name)), (.requestLine, .name(let name)):
            switch name {
            case "url": return .string(request.url)
            case "path": return .request(.path)
            case "pathSegments": return .request(.pathSegments)
            case "query": return .request(.query)
            case "headers": return part == .root ? .request(.headers) : .null
            case "cookies": return part == .root ? .request(.cookies) : .null
            case "method": return .string(request.method)
            case "scheme": return .string(request.scheme)
            case "host": return .string(request.host)
            case "port": return .integer(request.port)
            case "baseUrl": return .string(request.baseURLText)
            case "body": return part == .root ? .string(String(decoding: request.body ?? Data(), as: UTF8.self)) : .null
            case "bodyAsBase64": return part == .root ? .string((request.body ?? Data()).base64EncodedString()) : .null
            case "requestLine": return part == .root ? .request(.requestLine) : .null
            case "pathParameters": return .request(.pathParameters)
            default: return .null
            }
        case (.path, .index), (.pathSegments, _):
            return step(segment, of: .list(request.pathSegments.map(TemplateValue.string)), request: request)
        case (.path, .name(let name)), (.pathParameters, .name(let name)):
            if let value = request.pathParameters[name] { return .string(value) }
            return part == .path ? step(segment, of: .list(request.pathSegments.map(TemplateValue.string)), request: request) : .null
        case (.query, .name(let name)):
            let values = request.queryValues(name)
            return values.isEmpty ? .null : .multiple(values)
        case (.headers, .name(let name)):
            let values = request.headerValues(name)
            return values.isEmpty ? .null : .multiple(values)
        case (.cookies, .name(let name)):
            let values = request.cookieValues(name)
            return values.isEmpty ? .null : .multiple(values)
        default: return .null
        }
    }
}

extension TemplateValue {
    /// A request part as the value a template uses: `request.path` is the path's text,
    /// `request.pathSegments` the list of segments; the others stay parts (for `lookup`).
    func resolvedText(_ request: any TemplateRequestModel) -> TemplateValue {
        switch self {
        case .request(.path): return .string(request.path)
        case .request(.pathSegments): return .list(request.pathSegments.map(TemplateValue.string))
        default: return self
        }
    }
}
