import Foundation
import URLStubs

extension TemplateRenderer {
    /// The value of a helper, as WireMock's helper of that name gives it; a problem at render
    /// time is written `[ERROR: …]` in the output, as WireMock writes it.
    mutating func callHelper(_ call: HelperCall) -> TemplateValue {
        switch call.helper {
        case .now, .date, .parseDate, .truncateDate: return dateHelper(call)
        case .jsonPath: return jsonPathHelper(call)
        case .regexExtract: return regexExtractHelper(call)
        case .randomValue: return randomValueHelper(call)
        case .math: return mathHelper(call)
        case .size:
            switch evaluate(call.parameters[0]) {
            case .string(let text): return .integer(text.count)
            case .multiple(let values): return .integer(values.count)
            case .list(let items): return .integer(items.count)
            case .json(.array(let items)): return .integer(items.count)
            case .json(.object(let members)): return .integer(members.count)
            case .json(.string(let text)): return .integer(text.count)
            default: return .null
            }
        case .lookup:
            let container = evaluate(call.parameters[0])
            let key = evaluate(call.parameters[1]).text
            var found = Self.step(Int(key).map { .index($0) } ?? .name(key), of: container, request: request)
            if case .null = found, let dot = key.lastIndex(of: "."), let index = Int(key[key.index(after: dot)...]) {
                found = Self.step(.index(index), of: Self.step(.name(String(key[..<dot])), of: container, request: request), request: request)
            }
            return found.resolvedText(request)
        case .eq, .neq:
            let equal = Self.equal(evaluate(call.parameters[0]), evaluate(call.parameters[1]))
            return .bool(call.helper == .eq ? equal : !equal)
        case .gt, .gte, .lt, .lte:
            guard let left = evaluate(call.parameters[0]).number, let right = evaluate(call.parameters[1]).number else {
                let left = evaluate(call.parameters[0]).text
                let right = evaluate(call.parameters[1]).text
                switch call.helper {
                case .gt: return .bool(left > right)
                case .gte: return .bool(left >= right)
                case .lt: return .bool(left < right)
                default: return .bool(left <= right)
                }
            }
            switch call.helper {
            case .gt: return .bool(left > right)
            case .gte: return .bool(left >= right)
            case .lt: return .bool(left < right)
            default: return .bool(left <= right)
            }
        case .and: return .bool(call.parameters.allSatisfy { evaluate($0).isTruthy })
        case .or: return .bool(call.parameters.contains { evaluate($0).isTruthy })
        case .not: return .bool(!evaluate(call.parameters[0]).isTruthy)
        case .if: return .bool(evaluate(call.parameters[0]).isTruthy)
        case .unless: return .bool(!evaluate(call.parameters[0]).isTruthy)
        case .each, .with: return .null
        case .upper: return .string(evaluate(call.parameters[0]).text.uppercased())
        case .lower: return .string(evaluate(call.parameters[0]).text.lowercased())
        case .capitalize:
            return .string(
                evaluate(call.parameters[0]).text.split(separator: " ", omittingEmptySubsequences: false).map {
                    $0.prefix(1).uppercased() + $0.dropFirst()
                }.joined(separator: " "))
        case .trim: return .string(evaluate(call.parameters[0]).text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Handlebars.java's `eq` compares with `equals`: text with text, numbers by value; a value
    /// that may occur several times (`request.query.a`) is a list, equal to no text (WireMock's
    /// documentation: index it, `request.query.a.0`).
    static func equal(_ left: TemplateValue, _ right: TemplateValue) -> Bool {
        switch (left, right) {
        case (.multiple, .multiple(let values)): if case .multiple(let others) = left { return others == values } else { return false }
        case (.multiple, _), (_, .multiple): return false
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        default: break
        }
        if let a = left.exactNumber, let b = right.exactNumber { return a == b }
        if left.exactNumber != nil || right.exactNumber != nil { return false }
        return left.text == right.text
    }

    // MARK: jsonPath, regexExtract

    private mutating func jsonPathHelper(_ call: HelperCall) -> TemplateValue {
        let input = evaluate(call.parameters[0])
        let fallback = call.hashValue("default").map { evaluate($0) }
        let document: JSONValue
        switch input {
        case .json(let json): document = json
        case .null: return .string("")
        default:
            let text = input.text
            if text.isEmpty { return .string("") }
            if case .string = input, text == String(decoding: request.body ?? Data(), as: UTF8.self) {
                if bodyJSON == nil { bodyJSON = .some(try? JSONValue.parsing(request.body ?? Data())) }
                guard let parsed = bodyJSON ?? nil else { return .string("[ERROR: \(text) is not valid JSON]") }
                document = parsed
            } else {
                guard let parsed = try? JSONValue.parsing(Data(text.utf8)) else { return .string("[ERROR: \(text) is not valid JSON]") }
                document = parsed
            }
        }
        let path: WireMockJSONPath
        if case .jsonPath(let compiled) = call.compiled {
            path = compiled
        } else {
            let expression = evaluate(call.parameters[1]).text
            guard let parsed = try? WireMockJSONPath(expression) else { return .string("[ERROR: \(expression) is not a valid JSONPath expression]") }
            path = parsed
        }
        switch path.evaluate(document) {
        case .single(nil), .single(.null?): return fallback ?? .string("")
        case .single(let value?): return .json(value)
        case .list(let values): return .json(.array(values))
        }
    }

    private mutating func regexExtractHelper(_ call: HelperCall) -> TemplateValue {
        let input = evaluate(call.parameters[0]).text
        let regex: CompiledRegex
        if case .regex(let compiled) = call.compiled {
            regex = compiled
        } else {
            let pattern = evaluate(call.parameters[1]).text
            guard let compiled = try? CompiledRegex(pattern) else { return .string("[ERROR: Invalid regex string \(pattern)]") }
            regex = compiled
        }
        let variable = call.parameters.count > 2 ? evaluate(call.parameters[2]).text : nil
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(BudgetedRegex.defaultBudget * 1e9)
        var first: String?
        var groups: [String] = []
        var ranOut = false
        let range = NSRange(input.startIndex..., in: input)
        regex.expression.enumerateMatches(in: input, options: [.reportProgress], range: range) { result, _, stop in
            guard let result else {
                if DispatchTime.now().uptimeNanoseconds > deadline {
                    ranOut = true
                    stop.pointee = true
                }
                return
            }
            if variable == nil {
                first = Range(result.range, in: input).map { String(input[$0]) }
                stop.pointee = true
                return
            }
            if result.numberOfRanges > 1 {
                for group in 1..<result.numberOfRanges {
                    groups.append(Range(result.range(at: group), in: input).map { String(input[$0]) } ?? "")
                }
            }
        }
        if ranOut {
            return .string("[ERROR: the regular expression \(regex.pattern) ran out of its \(BudgetedRegex.defaultBudget) s time budget]")
        }
        if let first { return .string(first) }
        if let variable, !groups.isEmpty {
            variables[variable] = .multiple(groups)
            return .null
        }
        if let fallback = call.hashValue("default") { return evaluate(fallback) }
        return .string("[ERROR: Nothing matched \(regex.pattern)]")
    }

    // MARK: randomValue, math

    private mutating func randomValueHelper(_ call: HelperCall) -> TemplateValue {
        let length = call.hashValue("length").flatMap { evaluate($0).number }.map { Int($0) } ?? 36
        let type = call.hashValue("type").map { evaluate($0).text } ?? "ALPHANUMERIC"
        let uppercase = call.hashValue("uppercase").map { evaluate($0).isTruthy } ?? false
        let alphabet: [Character]
        switch type {
        case "UUID":
            var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
            bytes[6] = bytes[6] & 0x0F | 0x40
            bytes[8] = bytes[8] & 0x3F | 0x80
            let uuid = UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11],
                    bytes[12], bytes[13], bytes[14], bytes[15]
                )
            ).uuidString
            return .string(uppercase ? uuid : uuid.lowercased())
        case "ALPHABETIC": alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        case "NUMERIC": alphabet = Array("0123456789")
        case "HEXADECIMAL": alphabet = Array("ABCDEF0123456789")
        case "ALPHANUMERIC_AND_SYMBOLS": alphabet = (33...126).map { Character(UnicodeScalar(UInt8($0))) }
        default: alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        }
        var text = ""
        text.reserveCapacity(max(0, length))
        for _ in 0..<max(0, length) { text.append(alphabet[Int.random(in: 0..<alphabet.count, using: &random)]) }
        return .string(uppercase ? text.uppercased() : text.lowercased())
    }

    /// WireMock's `math`: BigDecimal arithmetic; whole operands give a whole result (`/`
    /// rounds half up to the left operand's scale), others a decimal.
    private mutating func mathHelper(_ call: HelperCall) -> TemplateValue {
        let left = evaluate(call.parameters[0])
        let op = evaluate(call.parameters[1]).text
        let right = evaluate(call.parameters[2])
        let leftNumber = left.number ?? 0
        let rightNumber = right.number ?? 0
        let leftScale = left.scale
        if leftScale == 0, right.scale == 0, let a = Int(exactly: leftNumber), let b = Int(exactly: rightNumber) {
            switch op {
            case "+": return .integer(a &+ b)
            case "-": return .integer(a &- b)
            case "*", "x": return .integer(a &* b)
            case "/":
                guard b != 0 else { return .string("[ERROR: Division by zero]") }
                return .integer(Int((Double(a) / Double(b)).rounded(.toNearestOrAwayFromZero)))
            case "%":
                guard b != 0 else { return .string("[ERROR: Division by zero]") }
                return .integer(a % b)
            default: return .string("[ERROR: \(op) is not a valid mathematical operator]")
            }
        }
        switch op {
        case "+": return .number(leftNumber + rightNumber)
        case "-": return .number(leftNumber - rightNumber)
        case "*", "x": return .number(leftNumber * rightNumber)
        case "/":
            guard rightNumber != 0 else { return .string("[ERROR: Division by zero]") }
            let factor = pow(10, Double(leftScale))
            return .number((leftNumber / rightNumber * factor).rounded(.toNearestOrAwayFromZero) / factor)
        case "%":
            guard rightNumber != 0 else { return .string("[ERROR: Division by zero]") }
            return .number(fmod(leftNumber, rightNumber))
        default: return .string("[ERROR: \(op) is not a valid mathematical operator]")
        }
    }
}

extension TemplateValue {
    /// The number when the value is one (not text that reads as one): what `eq` compares by value.
    var exactNumber: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        case .json(.integer(let value)): return Double(value)
        case .json(.number(let value)): return value
        default: return nil
        }
    }

    /// Digits after the decimal point, as BigDecimal counts them for `math`.
    var scale: Int {
        switch self {
        case .integer, .json(.integer): return 0
        case .number(let value), .json(.number(let value)):
            let text = String(value)
            guard let dot = text.firstIndex(of: "."), !text.contains("e") else { return 0 }
            let digits = text[text.index(after: dot)...]
            return digits == "0" ? 1 : digits.count
        default:
            let text = self.text.trimmingCharacters(in: .whitespaces)
            guard Double(text) != nil, let dot = text.firstIndex(of: ".") else { return 0 }
            return text.distance(from: text.index(after: dot), to: text.endIndex)
        }
    }
}
