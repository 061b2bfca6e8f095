import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

// Multipart bodies are compared part by part: the boundary is read from the request's
// `Content-Type` and never compared, since clients make a new one for every request.

/// Accepts `multipart/*` requests (form uploads) holding a part named `name`, with the given
/// file name, `Content-Type` and content when those are given; other parts may be present.
///
/// ```swift
/// registry.stub(isPath("/avatar") && hasMultipartPart(named: "avatar", filename: "me.png", contentType: "image/png")) { _ in
///     StubResponse(data: Data(), statusCode: 201)
/// }
/// hasMultipartPart(named: "title", text: "Holiday")                 // a form field's value, read as UTF-8
/// hasMultipartPart(named: "metadata", json: ["title": "Holiday"])   // a JSON document
/// hasMultipartPart(named: "avatar", data: pngBytes)                 // exactly these bytes
/// ```
///
/// The content type compares without case and ignores parameters it does not list
/// (`"text/plain"` accepts `text/plain; charset=utf-8`). The content is compared as bytes
/// (`data:`), as UTF-8 text (`text:`) or as a JSON document (`json:`: key order and number
/// spelling ignored, differences reported by JSON path; `NSNull()` is JSON `null`); give
/// several and the part must satisfy each.
///
/// - Important: Works for `httpBody`, `httpBodyStream` and upload-task bodies alike. A body
///   that claims to be multipart but cannot be read (no boundary, truncated, a malformed part)
///   is refused with the reason, never silently treated as "no such part". A `json:` value
///   that is not JSON fails every request with `StubError.invalidMatcher(stub:problems:)`.
public func hasMultipartPart(
    named name: String, filename: String? = nil, contentType: String? = nil,
    data: Data? = nil, text: String? = nil, json: Any? = nil
) -> RequestMatcher {
    MultipartStrategy.register()
    var content: [PartContent] = []
    if let data { content.append(.data(data)) }
    if let text { content.append(.text(text)) }
    if let json {
        guard let expected = try? JSONValue(any: json) else {
            return .invalid(
                "multipart part \"\(name)\"", problem: "hasMultipartPart(named: \"\(name)\", json:) was given a value that is not JSON: \(json)")
        }
        content.append(.json(expected))
    }
    var value: [String: JSONValue] = ["name": .string(name)]
    if let filename { value["filename"] = .string(filename) }
    if let contentType { value["contentType"] = .string(contentType) }
    if let data { value["base64"] = .string(data.base64EncodedString()) }
    if let text { value["text"] = .string(text) }
    if case .json(let expected)? = content.last, json != nil { value["json"] = expected }
    return multipartMatcher(name: name, filename: filename, contentType: contentType, content: content)
        .described(by: RequestPattern(body: [.kind(MultipartPartKind.name, .object(value))]))
}

private enum PartContent: Sendable {
    case data(Data)
    case text(String)
    case json(JSONValue)

    var description: String {
        switch self {
        case .data(let data): return "bytes \(describeBody(data))"
        case .text(let text): return "text \(literal(text))"
        case .json(let json): return "JSON \(json)"
        }
    }
}

private func multipartMatcher(name: String, filename: String?, contentType: String?, content: [PartContent]) -> RequestMatcher {
    var details: [String] = []
    if let filename { details.append("filename \"\(filename)\"") }
    if let contentType { details.append(contentType) }
    let description =
        "multipart part \"\(name)\"" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
        + (content.isEmpty ? "" : " with " + content.map(\.description).joined(separator: " and "))
    let expectedType = contentType.map { (text: $0, type: MediaType($0)) }
    return RequestMatcher(description: description) { request in
        guard request.isBodyKnown else { return .bodyUnknown }
        let header = request.value(forHTTPHeaderField: "Content-Type")
        guard let header, MultipartBody.isMultipart(contentType: header) else {
            return .failed("expected \(description), got a body that is not multipart (Content-Type \(quoted(header)))")
        }
        let body: MultipartBody
        do {
            body = try MultipartBody(request.body ?? Data(), contentType: header)
        } catch {
            return .failed("expected \(description), but the body claims \(MediaType(header).essence) and cannot be read: \(error)")
        }
        let named = body.parts.filter { $0.name == name }
        guard !named.isEmpty else {
            let names = body.parts.map { $0.name.map { "\"\($0)\"" } ?? "(unnamed)" }
            return .failed(
                "expected a multipart part named \"\(name)\", got " + (names.isEmpty ? "no parts" : "parts " + names.joined(separator: ", ")))
        }
        // The part that comes closest explains the mismatch (several parts may share a name).
        var closest: [String]?
        for part in named {
            let reasons = partMismatches(part, filename: filename, contentType: expectedType, content: content)
            if reasons.isEmpty { return .matched }
            if closest == nil || reasons.count < closest!.count { closest = reasons }
        }
        return .failed("multipart part \"\(name)\": " + (closest ?? []).joined(separator: "; "))
    }
}

private func partMismatches(
    _ part: MultipartPart, filename: String?, contentType: (text: String, type: MediaType)?,
    content: [PartContent]
) -> [String] {
    var reasons: [String] = []
    if let filename, part.filename != filename {
        reasons.append("expected filename \"\(filename)\", got \(quoted(part.filename))")
    }
    if let contentType, !(part.contentType.map(MediaType.init)?.satisfies(contentType.type) ?? false) {
        reasons.append("expected Content-Type \"\(contentType.text)\", got \(quoted(part.contentType))")
    }
    for expected in content {
        switch expected {
        case .data(let data):
            if part.body != data { reasons.append("expected \(describeBody(data)), got \(describeBody(part.body))") }
        case .text(let text):
            guard let actual = String(data: part.body, encoding: .utf8) else {
                reasons.append("expected text \(literal(text)), got \(part.body.count) bytes that are not UTF-8")
                break
            }
            if actual != text {
                reasons.append("expected text \(literal(text)), got \(literal(actual.count > 200 ? "\(actual.prefix(200))…" : actual))")
            }
        case .json(let expected):
            guard let actual = try? JSONValue(data: part.body) else {
                reasons.append("expected JSON \(expected), got \(JSONValue.unreadable(part.body, as: "content")): \(describeBody(part.body))")
                break
            }
            reasons += expected.differenceLines(from: actual)
        }
    }
    return reasons
}
