import Foundation

// Comparing and hashing JSON values without recursing through their depth: a request body
// nested 512 levels (what the reader takes) is compared and filed by the registry's index on
// whatever thread loads it, and a secondary thread on Apple platforms has a 512 KB stack.

extension JSONValue {
    /// Numbers by value across the two number cases (`1 == 1.0`; a large integer equals
    /// only the `Double` that is exactly it); everything else structurally.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = []
        var pair = (lhs, rhs)
        while true {
            switch pair {
            case let (.array(a), .array(b)):
                guard a.count == b.count else { return false }
                pending.append(contentsOf: zip(a, b))
            case let (.object(a), .object(b)):
                guard a.count == b.count else { return false }
                for (key, value) in a {
                    guard let other = b[key] else { return false }
                    pending.append((value, other))
                }
            default:
                guard scalarsAreEqual(pair.0, pair.1) else { return false }
            }
            guard let next = pending.popLast() else { return true }
            pair = next
        }
    }

    private static func scalarsAreEqual(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.integer(a), .number(b)), let (.number(b), .integer(a)): return Int(exactly: b) == a
        case let (.string(a), .string(b)): return a == b
        default: return false
        }
    }
}

extension JSONValue: Hashable {
    /// Consistent with ``==(_:_:)``: a whole number hashes alike as ``integer(_:)`` or
    /// ``number(_:)``, and members hash without regard to order. The registry's index files
    /// stubs by the JSON body they require, so equal documents must land in one bucket.
    /// Arrays and objects below 32 levels count by their size only, so hashing recurses no
    /// deeper than that.
    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, levels: 32)
    }

    private func hash(into hasher: inout Hasher, levels: Int) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let flag):
            hasher.combine(1)
            hasher.combine(flag)
        case .integer(let number):
            hasher.combine(2)
            hasher.combine(number)
        case .number(let number):
            if let whole = Int(exactly: number) {
                hasher.combine(2)
                hasher.combine(whole)
            } else {
                hasher.combine(3)
                hasher.combine(number)
            }
        case .string(let text):
            hasher.combine(4)
            hasher.combine(text)
        case .array(let elements):
            hasher.combine(5)
            hasher.combine(elements.count)
            guard levels > 0 else { return }
            for element in elements { element.hash(into: &hasher, levels: levels - 1) }
        case .object(let members):
            hasher.combine(6)
            hasher.combine(members.count)
            guard levels > 0 else { return }
            // Order-independent: the sum of each member's own hash.
            var sum = 0
            for (key, value) in members {
                var member = Hasher()
                member.combine(key)
                value.hash(into: &member, levels: levels - 1)
                sum &+= member.finalize()
            }
            hasher.combine(sum)
        }
    }
}
