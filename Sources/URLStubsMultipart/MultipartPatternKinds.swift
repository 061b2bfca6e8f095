import Foundation
import URLStubs

/// ``hasMultipartPart(named:filename:contentType:data:text:json:)`` as a kind of the declarative
/// vocabulary: `{"kind": "multipartPart", "value": {"name": "avatar", "filename": "me.png",
/// "contentType": "image/png", "base64": "…"}}` (also `"text"` or `"json"` for the content).
/// Using any multipart matcher registers it; a process that reads such declarations first calls
/// ``register()``.
public enum MultipartPatternKinds {
    /// Registers the kind (and the multipart request strategy) for every registry of the
    /// process; later calls are free.
    public static func register() { MultipartStrategy.register() }
}

/// The `multipartPart` kind (``MultipartPatternKinds``).
struct MultipartPartKind: RequestPatternKind {
    /// The kind's name in declarations.
    static let name = "multipartPart"

    var name: String { Self.name }

    /// The matcher for one part description.
    func matcher(for value: JSONValue) -> RequestMatcher {
        let allowed: Set = ["name", "filename", "contentType", "base64", "text", "json"]
        guard case .object(let members) = value, case .string(let name)? = members["name"] else {
            return .invalid(Self.name, problem: "expected an object with the part's \"name\"")
        }
        if let unknown = members.keys.sorted().first(where: { !allowed.contains($0) }) {
            return .invalid(Self.name, problem: "unknown member \"\(unknown)\"; expected one of \(allowed.sorted().joined(separator: ", "))")
        }
        func string(_ key: String) -> String? {
            if case .string(let text)? = members[key] { return text }
            return nil
        }
        var data: Data?
        if let encoded = string("base64") {
            guard let decoded = Data(base64Encoded: encoded) else { return .invalid(Self.name, problem: "\"base64\" is not base64") }
            data = decoded
        }
        return hasMultipartPart(
            named: name, filename: string("filename"), contentType: string("contentType"), data: data, text: string("text"),
            json: members["json"].map { $0 as Any })
    }
}
