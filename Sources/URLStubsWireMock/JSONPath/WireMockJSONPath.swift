import Foundation
import URLStubs

/// A JSONPath expression as WireMock's engine (Jayway JsonPath) reads it, parsed once, then
/// evaluated against any number of documents: `matchesJsonPath` and the `jsonPath` helper.
///
/// Supported: `$` and `@`; `.name`, `['name']`, `['a','b']`; `[2]`, `[-1]`, `[0,2]`, slices
/// `[1:3]`, `[:2]`, `[-2:]`; `*` and `[*]`; `..name`, `..*`, `..[0]`; filters
/// `[?(@.price < 10 && @.tag == 'x')]` with `==` `!=` `<` `<=` `>` `>=` `=~ /re/i` `in` `nin`
/// `subsetof` `anyof` `noneof` `size` `empty` `contains`, `!`, parentheses and existence
/// (`[?(@.isbn)]`); and the functions `length()`, `size()`, `min()`, `max()`, `avg()`, `sum()`,
/// `keys()`, `first()`, `last()` at the end of a path or of a filter operand.
///
/// A path is *definite* when it names one place (no wildcard, filter, slice, union or `..`):
/// its result is the value there, or nothing; an indefinite path yields a list, maybe empty.
package struct WireMockJSONPath: Sendable, Hashable, CustomStringConvertible {
    indirect enum Step: Sendable, Hashable {
        case member(String)
        case members([String])
        case index(Int)
        case indices([Int])
        case slice(Int?, Int?, Int?)
        case wildcard
        case descendants(Step)
        case filter(JSONPathFilter)
        case function(String)
    }

    /// What evaluating a path gives.
    package enum Result: Sendable, Equatable {
        /// A definite path's value, or `nil` when nothing is there.
        case single(JSONValue?)
        /// An indefinite path's values.
        case list([JSONValue])

        /// The value as one JSON value: a single value, or the list as an array (`nil` when a
        /// definite path found nothing).
        package var value: JSONValue? {
            switch self {
            case .single(let value): return value
            case .list(let values): return .array(values)
            }
        }
    }

    package let description: String
    let steps: [Step]
    /// The root of the path: `$` (document) or `@` (the current node of a filter).
    let relative: Bool

    /// Parses `expression`; throws ``JSONPathSyntaxError`` naming the position.
    package init(_ expression: String) throws {
        var parser = JSONPathParser(expression)
        let (steps, relative) = try parser.parsePath(allowRelative: false)
        try parser.expectEnd()
        self.init(description: expression, steps: steps, relative: relative)
    }

    init(description: String, steps: [Step], relative: Bool) {
        self.description = description
        self.steps = steps
        self.relative = relative
    }

    /// Throws a mapping problem at `path` when `expression` does not parse.
    static func validate(_ expression: String, at path: [any CodingKey]) throws {
        do {
            _ = try WireMockJSONPath(expression)
        } catch {
            throw MappingProblem.refused(at: path, "a JSONPath expression, but \(error); WireMock refuses it too (InvalidPathException)")
        }
    }

    /// Whether the path names one place.
    package var isDefinite: Bool {
        steps.allSatisfy {
            switch $0 {
            case .member, .index, .function: return true
            default: return false
            }
        }
    }

    /// The path evaluated on `document` (`root` is what `$` names inside filters; the document
    /// itself unless told otherwise).
    package func evaluate(_ document: JSONValue, root: JSONValue? = nil) -> Result {
        let root = root ?? document
        var nodes: [JSONValue] = [document]
        var definiteSoFar = true
        for step in steps {
            var next: [JSONValue] = []
            if case .function(let name) = step, !definiteSoFar {
                // After a wildcard, filter or `..`, a function applies to everything selected (Jayway).
                if let value = Self.function(name, of: .array(nodes)) { next.append(value) }
                return .single(next.first)
            }
            switch step {
            case .member, .index, .function: break
            default: definiteSoFar = false
            }
            for node in nodes { Self.apply(step, to: node, root: root, into: &next) }
            nodes = next
            if nodes.isEmpty { break }
        }
        return isDefinite ? .single(nodes.first) : .list(nodes)
    }

    private static func apply(_ step: Step, to node: JSONValue, root: JSONValue, into output: inout [JSONValue]) {
        switch step {
        case .member(let name):
            if case .object(let members) = node, let value = members[name] { output.append(value) }
        case .members(let names):
            if case .object(let members) = node { for name in names { if let value = members[name] { output.append(value) } } }
        case .index(let index):
            if case .array(let items) = node {
                let position = index < 0 ? items.count + index : index
                if items.indices.contains(position) { output.append(items[position]) }
            }
        case .indices(let indices):
            for index in indices { apply(.index(index), to: node, root: root, into: &output) }
        case .slice(let start, let end, let stride):
            guard case .array(let items) = node else { return }
            let count = items.count
            func clamp(_ value: Int?, _ fallback: Int) -> Int {
                guard let value else { return fallback }
                return value < 0 ? max(0, count + value) : min(count, value)
            }
            let from = clamp(start, 0)
            let to = clamp(end, count)
            let by = max(1, stride ?? 1)
            var position = from
            while position < to {
                output.append(items[position])
                position += by
            }
        case .wildcard:
            switch node {
            case .array(let items): output += items
            case .object(let members): output += members.keys.sorted().map { members[$0]! }
            default: break
            }
        case .descendants(let inner):
            var pending: [JSONValue] = [node]
            while let current = pending.popLast() {
                apply(inner, to: current, root: root, into: &output)
                switch current {
                case .array(let items): pending += items.reversed()
                case .object(let members): pending += members.keys.sorted().reversed().map { members[$0]! }
                default: break
                }
            }
        case .filter(let filter):
            switch node {
            case .array(let items): output += items.filter { filter.holds(for: $0, root: root) }
            case .object:
                if filter.holds(for: node, root: root) { output.append(node) }
            default: break
            }
        case .function(let name):
            if let value = function(name, of: node) { output.append(value) }
        }
    }

    /// `length()`/`size()` of an array, object or string; `min()`, `max()`, `avg()`, `sum()` of
    /// an array's numbers; `keys()` of an object; `first()`, `last()` of an array.
    static func function(_ name: String, of node: JSONValue) -> JSONValue? {
        let numbers: [Double]
        if case .array(let items) = node { numbers = items.compactMap(\.numericValue) } else { numbers = [] }
        switch (name, node) {
        case ("length", .array(let items)), ("size", .array(let items)): return .integer(items.count)
        case ("length", .object(let members)), ("size", .object(let members)): return .integer(members.count)
        case ("length", .string(let text)), ("size", .string(let text)): return .integer(text.count)
        case ("keys", .object(let members)): return .array(members.keys.sorted().map(JSONValue.string))
        case ("first", .array(let items)): return items.first
        case ("last", .array(let items)): return items.last
        case ("min", .array): return numbers.min().map(JSONValue.number)
        case ("max", .array): return numbers.max().map(JSONValue.number)
        case ("sum", .array): return numbers.isEmpty ? nil : .number(numbers.reduce(0, +))
        case ("avg", .array): return numbers.isEmpty ? nil : .number(numbers.reduce(0, +) / Double(numbers.count))
        default: return nil
        }
    }
}

/// Why a JSONPath expression does not parse: the expression, the 1-based position and what
/// was expected there.
package struct JSONPathSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    package let expression: String
    package let position: Int
    package let reason: String

    package var description: String { "\(reason) at position \(position) of \(expression)" }
}
