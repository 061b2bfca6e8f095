import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A change applied to a real response before the caller sees it (passthrough stubs).
///
/// Transforms run in order on the response the server sent. One that throws fails the
/// request with its error: a transform never silently leaves a body unmodified.
///
/// ```swift
/// registry.stub(isPath("/profile")) { _ in
///     .passthrough(.statusCode(503))
/// }
/// registry.stub(isPath("/profile")) { _ in
///     .passthrough(ResponseTransform("uppercase the body") { response, body in
///         (response, Data(String(decoding: body, as: UTF8.self).uppercased().utf8))
///     })
/// }
/// ```
public struct ResponseTransform: Sendable, CustomStringConvertible {
    /// What the transform does, for reports.
    public let description: String
    let apply: @Sendable (HTTPURLResponse, Data) throws -> (HTTPURLResponse, Data)
    /// Told when the request failed at the network instead (the recorder counts such failures);
    /// given the error as the app gets it, scrubbed.
    let networkFailed: (@Sendable (any Error) -> Void)?

    /// A transform from any closure.
    public init(
        _ description: String = "custom transform",
        _ apply: @escaping @Sendable (HTTPURLResponse, Data) throws -> (HTTPURLResponse, Data)
    ) {
        self.init(description, apply, networkFailed: nil)
    }

    /// A transform that also hears of a passthrough that got no response (`networkFailed`):
    /// the recorder's, which records the failure.
    package init(
        _ description: String, _ apply: @escaping @Sendable (HTTPURLResponse, Data) throws -> (HTTPURLResponse, Data),
        networkFailed: (@Sendable (any Error) -> Void)?
    ) {
        self.description = description
        self.apply = apply
        self.networkFailed = networkFailed
    }

    /// Replaces the status code.
    public static func statusCode(_ code: Int) -> ResponseTransform {
        ResponseTransform("status \(code)") { response, body in (response.withStatusCode(code), body) }
    }

    /// Sets (or, with `nil`, removes) headers.
    public static func headers(_ changes: [String: String?]) -> ResponseTransform {
        ResponseTransform("headers \(changes.keys.sorted().joined(separator: ", "))") { response, body in
            (response.withHeaders(changes), body)
        }
    }

    /// Replaces the body.
    public static func body(_ data: Data) -> ResponseTransform {
        ResponseTransform("body of \(data.count) bytes") { response, _ in (response, data) }
    }
}

extension HTTPURLResponse {
    /// The header fields as strings.
    var stringHeaders: [String: String] {
        var fields: [String: String] = [:]
        for (key, value) in allHeaderFields {
            fields["\(key)"] = "\(value)"
        }
        return fields
    }

    /// A copy with another status code.
    package func withStatusCode(_ statusCode: Int) -> HTTPURLResponse {
        HTTPURLResponse(
            url: url ?? URL(fileURLWithPath: "/"), statusCode: statusCode, httpVersion: "HTTP/1.1",
            headerFields: stringHeaders) ?? self
    }

    /// A copy with headers set, or removed where the value is `nil` (names compared
    /// case-insensitively).
    package func withHeaders(_ changes: [String: String?]) -> HTTPURLResponse {
        var fields = stringHeaders
        for (name, value) in changes {
            for key in fields.keys where key.caseInsensitiveCompare(name) == .orderedSame {
                fields[key] = nil
            }
            if let value { fields[name] = value }
        }
        return HTTPURLResponse(
            url: url ?? URL(fileURLWithPath: "/"), statusCode: statusCode, httpVersion: "HTTP/1.1",
            headerFields: fields) ?? self
    }
}

extension StubResponse {
    /// Sends the request to the real network (method, headers and body as the caller sent
    /// them, never intercepted again) and answers with the server's response, changed by
    /// `transforms`. The stub's timing still applies: the request time passes before the
    /// request is sent, and the body is paced like any other.
    ///
    /// ```swift
    /// registry.stub(isPath("/feed")) { _ in .passthrough() }
    /// ```
    public static func passthrough(_ transforms: ResponseTransform...) -> StubResponse {
        passthrough(transforms: transforms)
    }

    /// ``passthrough(_:)`` with an array, for URLStubsMigration's array spelling.
    package static func passthrough(transforms: [ResponseTransform]) -> StubResponse {
        var response = StubResponse(data: Data())
        response.action = .passThrough(transforms: transforms)
        return response
    }
}
