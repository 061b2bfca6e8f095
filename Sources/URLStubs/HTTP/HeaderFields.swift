/// The header fields of a request or response, in order, with names compared without case and
/// repeated fields kept (several `Set-Cookie` lines stay several lines).
///
/// Write it as a dictionary literal; a name may appear more than once:
///
/// ```swift
/// let response = StubResponse(
///     string: "ok",
///     headers: ["Content-Type": "text/plain", "Set-Cookie": "a=1; Path=/", "Set-Cookie": "b=2; Path=/"])
/// response.headers["content-type"]             // "text/plain"
/// response.headers.values(for: "Set-Cookie")   // ["a=1; Path=/", "b=2; Path=/"]
/// ```
///
/// Reading a name through the subscript gives every value of that name joined with `", "`, as
/// HTTP combines repeated fields (RFC 9110, 5.3); ``values(for:)`` gives each line.
/// `HTTPURLResponse` holds one value per name, so the app sees repeated fields joined the
/// same way (Foundation splits a joined `Set-Cookie` back into cookies).
public struct HeaderFields: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field: a name as written and its value.
    public typealias Field = (name: String, value: String)

    private var fields: [Field]

    /// No fields.
    public init() { fields = [] }

    /// The fields in the order given.
    public init(_ fields: [Field]) { self.fields = fields }

    /// The fields of a dictionary, ordered by name so that the order does not depend on
    /// hashing (`URLRequest.allHTTPHeaderFields` and `HTTPURLResponse.allHeaderFields` are
    /// dictionaries).
    public init(_ dictionary: [String: String]) {
        fields = dictionary.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { (name: $0.key, value: $0.value) }
    }

    /// The fields in the order written, repeated names included.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    // MARK: Reading and writing by name

    /// Every value of `name` joined with `", "`, or `nil` when there is none. Setting a value
    /// replaces every field of that name by one field where the first one stood (or at the
    /// end); setting `nil` removes them.
    public subscript(name: String) -> String? {
        get {
            let values = values(for: name)
            return values.count <= 1 ? values.first : values.joined(separator: ", ")
        }
        set {
            let first = fields.firstIndex { $0.name.equalsIgnoringASCIICase(name) }
            fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
            guard let newValue else { return }
            fields.insert((name: name, value: newValue), at: Swift.min(first ?? fields.count, fields.count))
        }
    }

    /// Each value of `name`, in order: one per field.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Adds a field after the others, keeping any field of the same name.
    public mutating func append(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func removeAll(named name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// One value per name, repeated fields joined with `", "`, names as first written: what
    /// `HTTPURLResponse` and `URLRequest` hold.
    var joinedByName: [String: String] {
        // One pass: values gathered per lower-cased name, each name joined once.
        var order: [String] = []
        var nameAsWritten: [String: String] = [:]
        var values: [String: [String]] = [:]
        for field in fields {
            let key = field.name.lowercased()
            if nameAsWritten[key] == nil {
                order.append(key)
                nameAsWritten[key] = field.name
            }
            values[key, default: []].append(field.value)
        }
        var joined: [String: String] = [:]
        joined.reserveCapacity(order.count)
        for key in order { joined[nameAsWritten[key]!] = values[key]!.joined(separator: ", ") }
        return joined
    }

    // MARK: Collection

    /// The position of the first field.
    public var startIndex: Int { fields.startIndex }
    /// The position after the last field.
    public var endIndex: Int { fields.endIndex }
    /// The field at `position`.
    public subscript(position: Int) -> Field { fields[position] }

    // MARK: Equality and description

    /// Equal when the same fields come in the same order; names compare without case.
    public static func == (left: HeaderFields, right: HeaderFields) -> Bool {
        left.fields.count == right.fields.count
            && zip(left.fields, right.fields).allSatisfy { $0.name.equalsIgnoringASCIICase($1.name) && $0.value == $1.value }
    }

    /// Hashes names without case, as equality compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.count)
        for field in fields {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }

    /// One `Name: value` line per field.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}
