#if !URLSTUBS_APPLE_LOADING
@_spi(Reflection) import Swift
import Foundation
import FoundationNetworking

// Field access for ``CorelibsTaskState``: corelibs' private task and session state, read by
// offset once the runtime's field table was read for a class.

/// `_EachFieldOptions.classType` (1 << 0), spelled by value: the stdlib declares it as a
/// mutable static, which Swift 6 does not let us read. A wrong value would find no field,
/// and every caller would take its safe fallback.
private let classTypeOption = _EachFieldOptions(rawValue: 1 << 0)

/// A stored property of a class: its byte offset in an instance and its declared type.
struct StoredField: @unchecked Sendable {
    // @unchecked: `Any.Type` is an immutable metadata pointer.
    let offset: Int
    let type: Any.Type

    /// The stored properties named in `names`, found in the runtime's field table of
    /// `object`'s class and its superclasses.
    ///
    /// The field table does not say whether a property is `weak` or `unowned`, whose storage
    /// is not a plain reference. So each field named in `references` is checked once, on this
    /// first instance: the word at its offset must be the very object a `Mirror` (which knows
    /// about reference storage) finds there. A field that fails, or is `nil` at that moment,
    /// is left out, and callers take their safe fallback.
    static func find(_ names: Set<String>, references: Set<String>, in object: AnyObject) -> [String: StoredField] {
        var found: [String: StoredField] = [:]
        _forEachField(of: Swift.type(of: object), options: classTypeOption) { name, offset, fieldType, _ in
            let label = String(cString: name)
            if names.contains(label) { found[label] = StoredField(offset: offset, type: fieldType) }
            return true
        }
        for name in references {
            guard let field = found[name] else { continue }
            let word = withExtendedLifetime(object) {
                UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).load(fromByteOffset: field.offset, as: UInt.self)
            }
            let expected = mirrorReference(named: name, in: object).map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) }
            if expected == nil || expected != word { found[name] = nil }
        }
        return found
    }

    /// The object a `Mirror` finds in the property `name` (unwrapping an optional), if any.
    private static func mirrorReference(named name: String, in object: AnyObject) -> AnyObject? {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children where child.label == name {
                var value = child.value
                let inner = Mirror(reflecting: value)
                if inner.displayStyle == .optional {
                    guard let wrapped = inner.children.first?.value else { return nil }
                    value = wrapped
                }
                guard Swift.type(of: value) is AnyObject.Type else { return nil }
                return value as AnyObject
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// The field's value when its declared type is exactly `T`, else `nil`.
    func load<T>(_: T.Type, from object: AnyObject) -> T? {
        guard type == T.self else { return nil }
        return withExtendedLifetime(object) {
            UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).load(fromByteOffset: offset, as: T.self)
        }
    }

    /// The field's value, boxed, whatever its type.
    func loadAny(from object: AnyObject) -> Any {
        func load<T>(_: T.Type) -> Any {
            withExtendedLifetime(object) {
                UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).load(fromByteOffset: offset, as: T.self)
            }
        }
        return _openExistential(type, do: load)
    }

    /// The object a reference field holds: a class, an optional class, or a class-bound
    /// existential, whose first word is the reference. Only for fields that ``find`` checked
    /// against a `Mirror` (that first word was the very object the `Mirror` saw).
    func loadObject(from object: AnyObject) -> AnyObject? {
        withExtendedLifetime(object) {
            UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).load(fromByteOffset: offset, as: AnyObject?.self)
        }
    }
}

/// Field tables per class, built from the first instance seen and then read under a lock.
///
/// A list, not a dictionary: it holds one entry per concrete class (a handful of task
/// classes, one session class), and comparing a few pointers costs less than hashing one.
final class LayoutCache<Layout>: @unchecked Sendable {
    private let layouts = Locked<[(ObjectIdentifier, Layout)]>([])
    private let make: (AnyObject) -> Layout

    init(_ make: @escaping (AnyObject) -> Layout) { self.make = make }

    func layout(of object: AnyObject) -> Layout {
        let key = ObjectIdentifier(Swift.type(of: object))
        let known = layouts.withLock { layouts -> Layout? in
            for (candidate, layout) in layouts where candidate == key { return layout }
            return nil
        }
        if let known { return known }
        let layout = make(object)
        layouts.withLock { $0.append((key, layout)) }
        return layout
    }
}

/// `URLSessionTask`'s private fields.
struct TaskLayout {
    let workQueue: StoredField?
    let session: StoredField?
    let knownBody: StoredField?
    /// `_state`, behind the public `state`.
    let state: StoredField?

    private static let cache = LayoutCache { task -> TaskLayout in
        let fields = StoredField.find(["workQueue", "session", "knownBody", "_state"], references: ["workQueue", "session"], in: task)
        return TaskLayout(
            workQueue: fields["workQueue"], session: fields["session"], knownBody: fields["knownBody"],
            state: fields["_state"])
    }

    static func of(_ task: URLSessionTask) -> TaskLayout { cache.layout(of: task) }
}

/// `URLSession`'s private `taskRegistry`, and that registry's `behaviours` (a dictionary keyed
/// by task identifier). The registry's class comes with the session's, so one lookup per
/// request finds both.
struct SessionLayout {
    struct Behaviours {
        let field: StoredField
        /// The dictionary's type, whose value type is private to corelibs; found once, so a
        /// request costs no dynamic cast.
        let dictionaryType: any IntKeyedDictionary.Type
    }

    let taskRegistry: StoredField?
    let behaviours: Behaviours?

    private static let cache = LayoutCache { session -> SessionLayout in
        guard let taskRegistry = StoredField.find(["taskRegistry"], references: ["taskRegistry"], in: session)["taskRegistry"],
            let registry = taskRegistry.loadObject(from: session)
        else {
            return SessionLayout(taskRegistry: nil, behaviours: nil)
        }
        guard let field = StoredField.find(["behaviours"], references: [], in: registry)["behaviours"],
            let dictionaryType = field.type as? any IntKeyedDictionary.Type
        else {
            return SessionLayout(taskRegistry: taskRegistry, behaviours: nil)
        }
        return SessionLayout(taskRegistry: taskRegistry, behaviours: Behaviours(field: field, dictionaryType: dictionaryType))
    }

    static func of(_ session: URLSession) -> SessionLayout { cache.layout(of: session) }
}

/// A dictionary keyed by `Int`, whatever its (possibly private) value type.
protocol IntKeyedDictionary {
    /// The value for `key` in the dictionary stored at `offset` in `object`, boxed.
    static func boxedValue(in object: AnyObject, atOffset offset: Int, forKey key: Int) -> Any?
}

extension Dictionary: IntKeyedDictionary where Key == Int {
    static func boxedValue(in object: AnyObject, atOffset offset: Int, forKey key: Int) -> Any? {
        withExtendedLifetime(object) {
            UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
                .load(fromByteOffset: offset, as: Self.self)[key].map { $0 as Any }
        }
    }
}
#endif
