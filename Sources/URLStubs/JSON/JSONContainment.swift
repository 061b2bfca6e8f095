import Foundation

/// How ``hasJSONBody(containing:arrays:)`` compares the arrays of a partial document.
public enum JSONArrayComparison: Sendable, Equatable {
    /// Arrays have the same length and each element contains the expected one at the same
    /// position (objects inside are still partial). `[["id": 1]]` accepts `[{"id": 1, "x": 2}]`
    /// but not `[{"id": 1}, {"id": 2}]`.
    case byPosition
    /// Each expected element is contained in a different element of the actual array, in
    /// any order; the actual array may hold more. `["b", "a"]` accepts `["a", "b", "c"]`.
    case unordered
}

extension JSONValue {
    /// Why `actual` does not contain `self`, one line per difference as a JSON path; empty
    /// when it does. Objects are compared by the keys `self` lists; arrays as `arrays` says;
    /// everything else by value.
    func containmentFailures(in actual: JSONValue, arrays: JSONArrayComparison, path: String = "$") -> [String] {
        switch (self, actual) {
        case let (.object(expected), .object(got)):
            var lines: [String] = []
            for key in expected.keys.sorted() {
                let childPath = "\(path).\(key)"
                guard let value = got[key] else {
                    lines.append("\(childPath): missing, expected \(expected[key]!)")
                    continue
                }
                lines += expected[key]!.containmentFailures(in: value, arrays: arrays, path: childPath)
            }
            return lines
        case let (.array(expected), .array(got)):
            switch arrays {
            case .byPosition:
                guard expected.count == got.count else {
                    return ["\(path): expected \(expected.count) elements, got \(got.count)"]
                }
                return zip(expected, got).enumerated().flatMap { index, pair in
                    pair.0.containmentFailures(in: pair.1, arrays: arrays, path: "\(path)[\(index)]")
                }
            case .unordered:
                let unmatched = Self.unmatchedElements(expected, in: got, arrays: arrays)
                return unmatched.map { index in
                    "\(path): no element contains \(expected[index]) (expected element \(index), in any order)"
                }
            }
        default:
            return self == actual ? [] : ["\(path): expected \(self), got \(actual)"]
        }
    }

    /// `true` when `actual` contains `self` (see ``containmentFailures(in:arrays:path:)``).
    func isContained(in actual: JSONValue, arrays: JSONArrayComparison) -> Bool {
        switch (self, actual) {
        case let (.object(expected), .object(got)):
            return expected.allSatisfy { key, value in got[key].map { value.isContained(in: $0, arrays: arrays) } ?? false }
        case let (.array(expected), .array(got)):
            switch arrays {
            case .byPosition:
                return expected.count == got.count && zip(expected, got).allSatisfy { $0.isContained(in: $1, arrays: arrays) }
            case .unordered:
                return Self.unmatchedElements(expected, in: got, arrays: arrays).isEmpty
            }
        default:
            return self == actual
        }
    }

    /// The positions of expected elements left without a distinct actual element containing
    /// them, after the largest possible pairing (augmenting paths: a greedy pairing would
    /// give `{"a":1}` the element that `{"a":1,"b":2}` needed).
    private static func unmatchedElements(_ expected: [JSONValue], in actual: [JSONValue], arrays: JSONArrayComparison) -> [Int] {
        guard !expected.isEmpty else { return [] }
        let fits: [[Int]] = expected.map { element in
            actual.indices.filter { element.isContained(in: actual[$0], arrays: arrays) }
        }
        var owner = [Int?](repeating: nil, count: actual.count)
        func assign(_ index: Int, _ visited: inout [Bool]) -> Bool {
            for candidate in fits[index] where !visited[candidate] {
                visited[candidate] = true
                if owner[candidate] == nil || assign(owner[candidate]!, &visited) {
                    owner[candidate] = index
                    return true
                }
            }
            return false
        }
        var unmatched: [Int] = []
        for index in expected.indices {
            var visited = [Bool](repeating: false, count: actual.count)
            if !assign(index, &visited) { unmatched.append(index) }
        }
        return unmatched
    }
}
