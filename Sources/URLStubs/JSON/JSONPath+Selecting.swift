import Foundation

extension JSONPath {
    /// Every value the path selects in `document`, in document order (members by name).
    func select(in document: JSONValue) -> [JSONValue] {
        var current = [document]
        for step in steps {
            var next: [JSONValue] = []
            for value in current {
                switch (step, value) {
                case (.member(let name), .object(let members)):
                    if let member = members[name] { next.append(member) }
                case (.index(let index), .array(let elements)):
                    if index < elements.count { next.append(elements[index]) }
                case (.wildcard, .array(let elements)):
                    next += elements
                case (.wildcard, .object(let members)):
                    next += members.sorted { $0.key < $1.key }.map(\.value)
                case (.descendant(let name), _):
                    Self.collect(name, in: value, into: &next)
                default:
                    continue
                }
            }
            current = next
        }
        return current
    }

    /// The members named `name` of `value` and of every value below it, without recursion.
    private static func collect(_ name: String, in value: JSONValue, into found: inout [JSONValue]) {
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .object(let members):
                if let member = members[name] { found.append(member) }
                pending += members.sorted { $0.key > $1.key }.map(\.value)
            case .array(let elements):
                pending += elements.reversed()
            default:
                continue
            }
        }
    }
}
