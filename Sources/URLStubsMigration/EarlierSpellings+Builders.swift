import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsGraphQL
import URLStubsStreaming

// The ways to build a `StubResponse` that 0.2 folds into its ten (one per kind of body), each
// forwarding to what it did.

extension StubResponse {
    /// A body streamed from the file at `url`, unchecked until a request comes:
    /// `init(fixture:statusCode:headers:)` streams it the same way and checks the file when
    /// built (it also reads `.response` and `.sse` files as whole messages).
    @available(*, deprecated, message: "use try StubResponse(fixture: url), which checks the file when the response is built")
    public init(fileAt url: URL, statusCode: Int = 200, headers: HeaderFields = [:]) {
        self.init(bodyFileAt: url, statusCode: statusCode, headers: headers)
    }

    /// A body read from an `InputStream` opened for each request: a file
    /// (`init(fixture:statusCode:headers:)`), a script (`stream(script:statusCode:headers:)`)
    /// or a live stream the test writes from its own thread (`stream(_:statusCode:headers:)`)
    /// sends the same bytes.
    @available(
        *, deprecated,
        message: "write the body to a file and use StubResponse(fixture:), or send it with .stream(script:) or .stream(liveStream)"
    )
    public static func stream(
        length: Int?, statusCode: Int = 200, headers: HeaderFields = [:],
        _ open: @escaping @Sendable () throws -> InputStream
    ) -> StubResponse {
        StubResponse(streamLength: length, statusCode: statusCode, headers: headers, open: open)
    }

    /// A `text/event-stream` live stream: `stream(_:statusCode:headers:)` with that
    /// `Content-Type` (this spelling also adds `Cache-Control: no-cache` unless given).
    @available(*, deprecated, message: "use .stream(liveStream, headers: [\"Content-Type\": \"text/event-stream\"])")
    public static func eventStream(_ stream: LiveStream, statusCode: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        .stream(stream, statusCode: statusCode, headers: eventStreamHeaders(headers))
    }

    /// A `text/event-stream` script: `stream(script:statusCode:headers:)` with that
    /// `Content-Type` (this spelling also adds `Cache-Control: no-cache` unless given).
    @available(*, deprecated, message: "use .stream(script: steps, headers: [\"Content-Type\": \"text/event-stream\"])")
    public static func eventStream(script steps: [StreamStep], statusCode: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        .stream(script: steps, statusCode: statusCode, headers: eventStreamHeaders(headers))
    }

    /// JSON from `JSONSerialization` objects: `init(json:statusCode:headers:encoder:)` takes
    /// them too.
    @available(*, deprecated, renamed: "init(json:statusCode:headers:)")
    public init(jsonObject: Any, statusCode: Int = 200, headers: HeaderFields = [:]) throws {
        // Not Encodable-first like `json:`: a `[String: Int]` keeps the sorted keys it had.
        _ = try JSONValue(any: jsonObject)
        let data = try JSONSerialization.data(withJSONObject: jsonObject, options: [.sortedKeys, .fragmentsAllowed])
        var fields = headers
        if !fields.contains(name: "Content-Type") { fields["Content-Type"] = "application/json" }
        self.init(data: data, statusCode: statusCode, headers: fields)
    }

    /// A response parsed from HTTP message bytes: saved as a `.response` file,
    /// `init(fixture:statusCode:headers:)` reads them the same way.
    @available(*, deprecated, message: "save the message as a .response file and use StubResponse(fixture:)")
    public init(httpMessage data: Data, source: String = "HTTP message") throws {
        try self.init(httpMessageData: data, source: source)
    }

    /// A GraphQL response: `init(json:statusCode:headers:encoder:)` with the document itself,
    /// `["data": …, "errors": [...]]`. This spelling also checks each error's shape.
    @available(*, deprecated, message: "use StubResponse(json: [\"data\": …, \"errors\": […]])")
    public init(
        graphQLData: [String: Any]?, errors: [[String: Any]] = [], extensions: [String: Any]? = nil,
        statusCode: Int = 200, headers: HeaderFields = [:]
    ) {
        self.init(graphQLResponseData: graphQLData, errors: errors, extensions: extensions, statusCode: statusCode, headers: headers)
    }

    /// A passthrough with an array of transforms: `passthrough(_:)` takes them listed.
    @available(*, deprecated, message: "list the transforms: .passthrough(first, second)")
    public static func passthrough(_ transforms: [ResponseTransform]) -> StubResponse {
        passthrough(transforms: transforms)
    }
}

extension StubResponse {
    /// Each `Set-Cookie` line of `headers`; setting it replaces them. `headers` keeps repeated
    /// fields, so cookies need no second place.
    @available(
        *, deprecated,
        message: "write headers: [\"Set-Cookie\": \"a=1\", \"Set-Cookie\": \"b=2\"]; read headers.values(for: \"Set-Cookie\")"
    )
    public var setCookieHeaders: [String] {
        get { headers.values(for: "Set-Cookie") }
        set {
            headers.removeAll(named: "Set-Cookie")
            for line in newValue { headers.append(name: "Set-Cookie", value: line) }
        }
    }
}
