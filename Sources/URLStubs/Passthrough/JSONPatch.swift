import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension JSONValue {
    /// RFC 7396 JSON Merge Patch: objects merge recursively, `null` deletes a member, anything
    /// else (arrays included) replaces.
    package func mergePatch(_ patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        return patchingMembers(with: changes) { $0.mergePatch($1) }
    }

    /// Applies an object patch member by member: `null` deletes, anything else goes through
    /// `apply` (the two patch flavours differ only in how they recurse).
    private func patchingMembers(
        with changes: [String: JSONValue],
        _ apply: (JSONValue, JSONValue) -> JSONValue
    ) -> JSONValue {
        var members: [String: JSONValue] = [:]
        if case .object(let existing) = self { members = existing }
        for (key, change) in changes {
            members[key] = change == .null ? nil : apply(members[key] ?? .null, change)
        }
        return .object(members)
    }

    /// GYHttpMock's patch: like a merge patch, except that an array in the patch holding one
    /// object applies that object to every element of the matching array, so
    /// `{"items": [{"price": 0}]}` sets the price of every item. Other arrays replace.
    package func templatePatch(_ patch: JSONValue) -> JSONValue {
        switch (self, patch) {
        case (.object, .object(let changes)):
            return patchingMembers(with: changes) { $0.templatePatch($1) }
        case (.array(let elements), .array(let patches)) where patches.count == 1:
            if case .object = patches[0] {
                return .array(elements.map { $0.templatePatch(patches[0]) })
            }
            return patch
        default:
            return patch
        }
    }
}

extension ResponseTransform {
    /// Patches a JSON body with RFC 7396 JSON Merge Patch (`null` deletes a member).
    ///
    /// ```swift
    /// // Tomorrow's backend on today's data: the real profile, with a new field and no "legacyId".
    /// registry.stub(isPath("/profile")) { _ in
    ///     .passthrough(.jsonMergePatch(["plan": "premium", "legacyId": NSNull()]))
    /// }
    /// ```
    /// A body that is not JSON fails the request with ``StubError/bodyIsNotJSON(url:contentType:preview:)``.
    public static func jsonMergePatch(_ patch: Any) -> ResponseTransform {
        jsonTransform("JSON merge patch", patch) { $0.mergePatch($1) }
    }

    /// Patches a JSON body the GYHttpMock way: the patch mirrors the response's shape, and an
    /// object inside an array applies to every element of that array.
    ///
    /// ```swift
    /// registry.stub(isPath("/cart")) { _ in
    ///     .passthrough(.jsonTemplatePatch(["items": [["price": 0]], "currency": "EUR"]))
    /// }
    /// ```
    public static func jsonTemplatePatch(_ patch: Any) -> ResponseTransform {
        jsonTransform("JSON template patch", patch) { $0.templatePatch($1) }
    }

    private static func jsonTransform(
        _ name: String, _ patch: Any,
        _ apply: @escaping @Sendable (JSONValue, JSONValue) -> JSONValue
    ) -> ResponseTransform {
        let parsed = Result { try JSONValue(any: patch) }.mapError { SendableError(error: $0) }
        return ResponseTransform(name) { response, body in
            let patch: JSONValue
            switch parsed {
            case .success(let value): patch = value
            case .failure(let failure): throw StubError.patchIsNotJSON("\(failure.error)")
            }
            guard let document = try? JSONValue(data: body) else {
                let preview = String(decoding: body.prefix(40), as: UTF8.self).debugDescription
                throw StubError.bodyIsNotJSON(
                    url: response.url?.absoluteString ?? "?",
                    contentType: response.value(forHTTPHeaderField: "Content-Type"), preview: preview)
            }
            var headers: [String: String?] = [:]
            if response.value(forHTTPHeaderField: "Content-Type") == nil { headers["Content-Type"] = "application/json" }
            return (response.withHeaders(headers), apply(document, patch).serialized())
        }
    }
}
