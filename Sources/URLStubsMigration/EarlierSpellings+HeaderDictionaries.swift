import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsGraphQL
import URLStubsStreaming

// Headers passed as a `[String: String]` value, as URLStubs 0.1 and OHHTTPStubs took them: each
// builder that takes `headers:` also takes a dictionary variable here, deprecated, as
// `HeaderFields(dictionary)`.
//
// Each of these is generic over the sequence and `@_disfavoredOverload`, so that a dictionary
// LITERAL keeps choosing the `HeaderFields` spelling (no warning, repeated names kept in order).
// A plain `[String: String]` parameter would win for literals: the type checker prefers a
// literal's default type (`Dictionary`) over any other `ExpressibleByDictionaryLiteral` type, and
// tries that overload first, before `@_disfavoredOverload` is weighed. A generic parameter is
// not preferred that way, and the attribute then ranks it last. Tests/URLStubsMigrationTests'
// `HeaderDictionaryTests` compiles literal calls without a warning (CI builds tests with
// warnings as failures).

extension HeaderFields {
    /// The fields of a `[String: String]` (or any key-value sequence; a repeated key keeps its
    /// last value), ordered by name as `init(_:)` orders a dictionary.
    init(migrating headers: some Sequence<(key: String, value: String)>) {
        self.init(Dictionary(headers.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last }))
    }
}

extension StubResponse {
    /// `init(data:statusCode:headers:)` with headers from a dictionary value: wrap it,
    /// `headers: HeaderFields(dictionary)`.
    @_disfavoredOverload
    @available(*, deprecated, message: "headers are HeaderFields: pass headers: HeaderFields(dictionary)")
    public init(data: Data = Data(), statusCode: Int = 200, headers: some Sequence<(key: String, value: String)>) {
        self.init(data: data, statusCode: statusCode, headers: HeaderFields(migrating: headers))
    }

    /// `init(string:statusCode:headers:)` with headers from a dictionary value: wrap it,
    /// `headers: HeaderFields(dictionary)`.
    @_disfavoredOverload
    @available(*, deprecated, message: "headers are HeaderFields: pass headers: HeaderFields(dictionary)")
    public init(string: String, statusCode: Int = 200, headers: some Sequence<(key: String, value: String)>) {
        self.init(string: string, statusCode: statusCode, headers: HeaderFields(migrating: headers))
    }

    /// `init(json:statusCode:headers:encoder:)` with headers from a dictionary value: wrap it,
    /// `headers: HeaderFields(dictionary)`.
    @_disfavoredOverload
    @available(*, deprecated, message: "headers are HeaderFields: pass headers: HeaderFields(dictionary)")
    public init(
        json value: Any, statusCode: Int = 200, headers: some Sequence<(key: String, value: String)>, encoder: JSONEncoder = JSONEncoder()
    ) throws {
        try self.init(json: value, statusCode: statusCode, headers: HeaderFields(migrating: headers), encoder: encoder)
    }

    /// `init(fixture:statusCode:headers:)` with headers from a dictionary value: wrap it,
    /// `headers: HeaderFields(dictionary)`.
    @_disfavoredOverload
    @available(*, deprecated, message: "headers are HeaderFields: pass headers: HeaderFields(dictionary)")
    public init(fixture url: URL, statusCode: Int = 200, headers: some Sequence<(key: String, value: String)>) throws {
        try self.init(fixture: url, statusCode: statusCode, headers: HeaderFields(migrating: headers))
    }

    /// `init(fixture:in:subdirectory:statusCode:headers:)` with headers from a dictionary
    /// value: wrap it, `headers: HeaderFields(dictionary)`.
    @_disfavoredOverload
    @available(*, deprecated, message: "headers are HeaderFields: pass headers: HeaderFields(dictionary)")
    public init(
        fixture name: String, in bundle: Bundle, subdirectory: String? = nil, statusCode: Int = 200,
        headers: some Sequence<(key: String, value: String)>
    ) throws {
        try self.init(fixture: name, in: bundle, subdirectory: subdirectory, statusCode: statusCode, headers: HeaderFields(migrating: headers))
    }

    /// `stream(_:statusCode:headers:)` with headers from a dictionary value: wrap it,
    /// `headers: HeaderFields(dictionary)`.
    @_disfavoredOverload
    @available(*, deprecated, message: "headers are HeaderFields: pass headers: HeaderFields(dictionary)")
    public static func stream(
        _ stream: LiveStream, statusCode: Int = 200, headers: some Sequence<(key: String, value: String)>
    ) -> StubResponse {
        .stream(stream, statusCode: statusCode, headers: HeaderFields(migrating: headers))
    }

    /// `stream(script:statusCode:headers:)` with headers from a dictionary value: wrap it,
    /// `headers: HeaderFields(dictionary)`.
    @_disfavoredOverload
    @available(*, deprecated, message: "headers are HeaderFields: pass headers: HeaderFields(dictionary)")
    public static func stream(
        script steps: [StreamStep], statusCode: Int = 200, headers: some Sequence<(key: String, value: String)>
    ) -> StubResponse {
        .stream(script: steps, statusCode: statusCode, headers: HeaderFields(migrating: headers))
    }

    // The earlier spellings that take `headers:`, with a dictionary value too.

    /// `init(fileAt:statusCode:headers:)` with headers from a dictionary value.
    @_disfavoredOverload
    @available(*, deprecated, message: "use try StubResponse(fixture: url, headers: HeaderFields(dictionary))")
    public init(fileAt url: URL, statusCode: Int = 200, headers: some Sequence<(key: String, value: String)>) {
        self.init(bodyFileAt: url, statusCode: statusCode, headers: HeaderFields(migrating: headers))
    }

    /// `init(jsonObject:statusCode:headers:)` with headers from a dictionary value.
    @_disfavoredOverload
    @available(*, deprecated, message: "use StubResponse(json: object, headers: HeaderFields(dictionary))")
    public init(jsonObject: Any, statusCode: Int = 200, headers: some Sequence<(key: String, value: String)>) throws {
        try self.init(jsonObject: jsonObject, statusCode: statusCode, headers: HeaderFields(migrating: headers))
    }

    /// `init(graphQLData:errors:extensions:statusCode:headers:)` with headers from a dictionary
    /// value.
    @_disfavoredOverload
    @available(*, deprecated, message: "use StubResponse(json: [\"data\": …, \"errors\": […]], headers: HeaderFields(dictionary))")
    public init(
        graphQLData: [String: Any]?, errors: [[String: Any]] = [], extensions: [String: Any]? = nil,
        statusCode: Int = 200, headers: some Sequence<(key: String, value: String)>
    ) {
        self.init(
            graphQLResponseData: graphQLData, errors: errors, extensions: extensions, statusCode: statusCode,
            headers: HeaderFields(migrating: headers))
    }

    /// `eventStream(_:statusCode:headers:)` with headers from a dictionary value.
    @_disfavoredOverload
    @available(*, deprecated, message: "use .stream(liveStream, headers: HeaderFields(dictionary)) with a text/event-stream Content-Type")
    public static func eventStream(
        _ stream: LiveStream, statusCode: Int = 200, headers: some Sequence<(key: String, value: String)>
    ) -> StubResponse {
        .stream(stream, statusCode: statusCode, headers: eventStreamHeaders(HeaderFields(migrating: headers)))
    }

    /// `eventStream(script:statusCode:headers:)` with headers from a dictionary value.
    @_disfavoredOverload
    @available(*, deprecated, message: "use .stream(script: steps, headers: HeaderFields(dictionary)) with a text/event-stream Content-Type")
    public static func eventStream(
        script steps: [StreamStep], statusCode: Int = 200, headers: some Sequence<(key: String, value: String)>
    ) -> StubResponse {
        .stream(script: steps, statusCode: statusCode, headers: eventStreamHeaders(HeaderFields(migrating: headers)))
    }

    /// `stream(length:statusCode:headers:_:)` with headers from a dictionary value.
    @_disfavoredOverload
    @available(
        *, deprecated,
        message: "write the body to a file and use StubResponse(fixture:headers:), or .stream(script:headers:), with HeaderFields(dictionary)"
    )
    public static func stream(
        length: Int?, statusCode: Int = 200, headers: some Sequence<(key: String, value: String)>,
        _ open: @escaping @Sendable () throws -> InputStream
    ) -> StubResponse {
        StubResponse(streamLength: length, statusCode: statusCode, headers: HeaderFields(migrating: headers), open: open)
    }
}

extension StubRegistry {
    /// The one-line JSON stub, `stub(_:_:name:statusCode:headers:json:fileID:filePath:line:)`,
    /// with headers from a dictionary value: wrap it, `headers: HeaderFields(dictionary)`.
    @_disfavoredOverload
    @available(*, deprecated, message: "headers are HeaderFields: pass headers: HeaderFields(dictionary)")
    @discardableResult
    public func stub(
        _ method: StubRequest.Method, _ url: String, name: String? = nil, statusCode: Int = 200,
        headers: some Sequence<(key: String, value: String)>, json: Any,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) -> StubDescriptor {
        stub(
            method, url, name: name, statusCode: statusCode, headers: HeaderFields(migrating: headers), json: json,
            fileID: fileID, filePath: filePath, line: line)
    }

    /// The one-line stub of bytes, `stub(_:_:name:statusCode:headers:data:fileID:filePath:line:)`,
    /// with headers from a dictionary value: wrap it, `headers: HeaderFields(dictionary)`.
    @_disfavoredOverload
    @available(*, deprecated, message: "headers are HeaderFields: pass headers: HeaderFields(dictionary)")
    @discardableResult
    public func stub(
        _ method: StubRequest.Method, _ url: String, name: String? = nil, statusCode: Int = 200,
        headers: some Sequence<(key: String, value: String)>, data: Data = Data(),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) -> StubDescriptor {
        stub(
            method, url, name: name, statusCode: statusCode, headers: HeaderFields(migrating: headers), data: data,
            fileID: fileID, filePath: filePath, line: line)
    }
}
