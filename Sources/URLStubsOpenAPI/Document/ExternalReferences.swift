import Foundation
import URLStubs

/// Finds a `$ref` to another file anywhere in a document (operations, headers, links,
/// callbacks, schemas): the document is refused rather than read with a part silently missing.
///
/// Values that are data, not document structure (`example`, `default`, `enum`, `const`, an
/// Example Object's `value`, a schema's `examples` list, `x-` extensions) are not searched.
/// The walk keeps its own stack, so any nesting the readers accept is safe.
enum ExternalReferences {
    static let dataKeys: Set<String> = ["example", "default", "enum", "const", "value"]

    /// The pointer and text of the first external `$ref` in `root`, or `nil`.
    static func first(in root: JSONValue) -> (pointer: String, reference: String)? {
        // Most documents have none: look without building pointers first.
        guard contains(root) else { return nil }
        var pending: [(value: JSONValue, pointer: String)] = [(root, "#")]
        while let (value, pointer) = pending.popLast() {
            switch value {
            case .object(let members):
                if case .string(let reference)? = members["$ref"], !reference.hasPrefix("#") { return (pointer, reference) }
                for name in members.keys.sorted().reversed() where searches(name, members[name]!) {
                    pending.append((members[name]!, JSONPointer.appending(pointer, name)))
                }
            case .array(let items):
                for (position, item) in items.enumerated().reversed() {
                    pending.append((item, JSONPointer.appending(pointer, String(position))))
                }
            default: break
            }
        }
        return nil
    }

    private static func contains(_ root: JSONValue) -> Bool {
        var pending = [root]
        while let value = pending.popLast() {
            switch value {
            case .object(let members):
                if case .string(let reference)? = members["$ref"], !reference.hasPrefix("#") { return true }
                for (name, member) in members where searches(name, member) { pending.append(member) }
            case .array(let items): pending += items
            default: break
            }
        }
        return false
    }

    private static func searches(_ name: String, _ value: JSONValue) -> Bool {
        if dataKeys.contains(name) || name.hasPrefix("x-") { return false }
        if name == "examples", case .array = value { return false }
        return true
    }
}
