import Foundation
import URLStubs

// A tag's content read into expressions: helper calls with their parameters and hash
// arguments, literals, and paths into the request model or a block's context.
extension TemplateParser {
    func expression(_ content: String, at offset: Int) throws -> TemplateExpression {
        let tokens = try tokenize(content, at: offset)
        guard let first = tokens.first else { throw fail(at: offset, "an empty tag") }
        if case .word(let name, _) = first, let helper = TemplateHelper(rawValue: name) {
            return .call(try call(helper, tokens: Array(tokens.dropFirst()), at: offset, block: false))
        }
        if tokens.count > 1 || tokens.contains(where: { if case .hash = $0 { return true } else { return false } }) {
            if case .word(let name, let at) = first {
                throw fail(
                    at: at,
                    "the helper \"\(name)\", which URLStubs does not know; known: \(TemplateHelper.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            throw fail(at: offset, "one value, or a helper followed by its parameters")
        }
        return try value(first)
    }

    func helperCall(_ content: String, at offset: Int, block: Bool) throws -> HelperCall {
        let tokens = try tokenize(content, at: offset)
        guard case .word(let name, let at)? = tokens.first else { throw fail(at: offset, "a block helper's name after \"#\"") }
        guard let helper = TemplateHelper(rawValue: name) else {
            throw fail(
                at: at,
                "the block helper \"\(name)\", which URLStubs does not know; known: \(TemplateHelper.allCases.filter(\.takesBlock).map(\.rawValue).joined(separator: ", "))"
            )
        }
        guard helper.takesBlock else { throw fail(at: at, "\"\(name)\", which is not a block helper: write {{\(name) …}}") }
        return try call(helper, tokens: Array(tokens.dropFirst()), at: at, block: block)
    }

    func call(_ helper: TemplateHelper, tokens: [TemplateToken], at offset: Int, block: Bool) throws -> HelperCall {
        if helper.needsBlock, !block {
            throw fail(at: offset, "\(helper.rawValue) used inline; it needs a block: {{#\(helper.rawValue) …}}…{{/\(helper.rawValue)}}")
        }
        var parameters: [TemplateExpression] = []
        var hash: [(name: String, value: TemplateExpression)] = []
        for token in tokens {
            if case .hash(let name, let valueToken) = token {
                hash.append((name, try value(valueToken)))
            } else {
                parameters.append(try value(token))
            }
        }
        let compiled = try compile(helper, parameters: parameters, hash: hash, at: offset)
        return HelperCall(helper: helper, parameters: parameters, hash: hash, compiled: compiled)
    }

    /// Checks what can be checked at load (arity, literal JSONPaths, expressions, date

    func value(_ token: TemplateToken) throws -> TemplateExpression {
        switch token {
        case .string(let text): return .literal(.string(text))
        case .number(let number): return .literal(number)
        case .hash(let name, _): throw fail(at: 0, "\(name)= where a value was expected")
        case .group(let tokens, let at):
            guard case .word(let name, let nameAt)? = tokens.first else { throw fail(at: at, "a helper's name after \"(\"") }
            guard let helper = TemplateHelper(rawValue: name) else {
                throw fail(
                    at: nameAt,
                    "the helper \"\(name)\", which URLStubs does not know; known: \(TemplateHelper.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .call(try call(helper, tokens: Array(tokens.dropFirst()), at: nameAt, block: false))
        case .word(let word, let at):
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default:
                if let helper = TemplateHelper(rawValue: word), !helper.needsBlock {
                    return .call(try call(helper, tokens: [], at: at, block: false))
                }
                return .path(try path(word, at: at))
            }
        }
    }

    func path(_ word: String, at offset: Int) throws -> TemplatePath {
        var rest = Substring(word)
        var dataName: String?
        if rest.hasPrefix("@") {
            let name = rest.dropFirst().prefix { $0 != "." }
            dataName = String(name)
            rest = rest.dropFirst(name.count + 1)
            guard ["index", "key", "first", "last"].contains(dataName!) else {
                throw fail(at: offset, "@\(dataName!); inside {{#each}} use @index, @key, @first or @last")
            }
        }
        var segments: [TemplatePath.Segment] = []
        var current = ""
        var index = rest.startIndex
        func finish(_ segment: String, bracketed: Bool) {
            if segment.isEmpty, !bracketed { return }
            if let number = Int(segment) {
                segments.append(.index(number))
            } else {
                segments.append(.name(segment))
            }
        }
        while index < rest.endIndex {
            let character = rest[index]
            if character == "[" {
                guard let close = rest[index...].firstIndex(of: "]") else { throw fail(at: offset, "a \"[\" that is never closed in \(word)") }
                finish(current, bracketed: false)
                current = ""
                finish(String(rest[rest.index(after: index)..<close]), bracketed: true)
                index = rest.index(after: close)
                continue
            }
            if character == "." || character == "/" {
                finish(current, bracketed: false)
                current = ""
            } else {
                current.append(character)
            }
            index = rest.index(after: index)
        }
        finish(current, bracketed: false)
        if segments.first == .name("this") { segments.removeFirst() }
        return TemplatePath(dataName: dataName, segments: segments, text: word)
    }
}
