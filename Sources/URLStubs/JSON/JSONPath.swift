import Foundation

/// A JSON path naming the parts of a document to leave out of a comparison, such as
/// `$.timestamp`, `$.items[*].id` or `$..requestId`.
///
/// The subset of JSONPath that volatile fields need: `$` the root, `.name` or `['name']` a
/// member, `[2]` an array element, `[*]` or `.*` every element or member, and `..name` a
/// member at any depth. Filters and slices are not supported (a volatile field is named,
/// not computed).
struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    enum Step: Sendable, Hashable {
        case member(String)
        case index(Int)
        case wildcard
        /// `..name`: the member `name` of this value and of every value below it.
        case descendant(String)
    }

    /// The path as written.
    let description: String
    let steps: [Step]

    /// Parses a path; throws ``JSONPathError`` naming the column of a syntax error.
    init(_ text: String) throws {
        let characters = Array(text)
        func fail(_ index: Int, _ message: String) -> JSONPathError {
            JSONPathError(path: text, column: index + 1, message: message)
        }
        guard characters.first == "$" else { throw fail(0, "a JSON path starts with \"$\"") }
        var steps: [Step] = []
        var index = 1
        func name(from start: Int) -> (String, Int) {
            var end = start
            while end < characters.count, characters[end] != ".", characters[end] != "[" { end += 1 }
            return (String(characters[start..<end]), end)
        }
        while index < characters.count {
            switch characters[index] {
            case ".":
                if index + 1 < characters.count, characters[index + 1] == "." {
                    let (member, end) = name(from: index + 2)
                    guard !member.isEmpty, member != "*" else {
                        throw fail(index, "\"..\" must be followed by a member name (\"..*\" would blank everything)")
                    }
                    steps.append(.descendant(member))
                    index = end
                } else {
                    let (member, end) = name(from: index + 1)
                    guard !member.isEmpty else { throw fail(index, "a \".\" must be followed by a member name or \"*\"") }
                    steps.append(member == "*" ? .wildcard : .member(member))
                    index = end
                }
            case "[":
                guard let close = characters[(index + 1)...].firstIndex(of: "]") else {
                    throw fail(index, "\"[\" is never closed by \"]\"")
                }
                let inside = String(characters[(index + 1)..<close])
                if inside == "*" {
                    steps.append(.wildcard)
                } else if let position = Int(inside), position >= 0, inside.allSatisfy(\.isASCII) {
                    steps.append(.index(position))
                } else if inside.count >= 2, let quote = inside.first, quote == "'" || quote == "\"", inside.last == quote {
                    steps.append(.member(String(inside.dropFirst().dropLast())))
                } else {
                    throw fail(index + 1, "expected an index, \"*\" or a quoted member name between brackets, found \"\(inside)\"")
                }
                index = close + 1
            default:
                throw fail(index, "expected \".\" or \"[\" after \"\(String(characters[..<index]))\"")
            }
        }
        self.description = text
        self.steps = steps
    }

    /// `value` without what the path names: a member is removed, an array element becomes
    /// `null` (so the positions of the others do not move). Paths that do not exist in the
    /// document change nothing.
    func removing(from value: JSONValue) -> JSONValue {
        Self.removing(steps[...], from: value)
    }

    private static func removing(_ steps: ArraySlice<Step>, from value: JSONValue) -> JSONValue {
        guard let step = steps.first else { return value }
        let rest = steps.dropFirst()
        let isLast = rest.isEmpty
        switch (step, value) {
        case (.member(let name), .object(var members)):
            guard let member = members[name] else { return value }
            members[name] = isLast ? nil : removing(rest, from: member)
            return .object(members)
        case (.index(let position), .array(var elements)):
            guard position < elements.count else { return value }
            elements[position] = isLast ? .null : removing(rest, from: elements[position])
            return .array(elements)
        case (.wildcard, .object(let members)):
            return .object(isLast ? [:] : members.mapValues { removing(rest, from: $0) })
        case (.wildcard, .array(let elements)):
            return .array(elements.map { isLast ? .null : removing(rest, from: $0) })
        case (.descendant(let name), .object(var members)):
            // Below first, then here: a member named like its parent is reached either way.
            members = members.mapValues { removing(steps, from: $0) }
            if let member = members[name] {
                members[name] = isLast ? nil : removing(rest, from: member)
            }
            return .object(members)
        case (.descendant, .array(let elements)):
            return .array(elements.map { removing(steps, from: $0) })
        default:
            return value
        }
    }
}

/// A syntax error in a JSON path given to ``hasJSONBody(_:ignoring:)`` or ``VolatileFields``.
struct JSONPathError: Error, Sendable, Equatable, CustomStringConvertible {
    let path: String
    let column: Int
    let message: String

    var description: String {
        "invalid JSON path \"\(path)\" at column \(column): \(message)"
    }
}
