import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ResponseDefinition {
    /// The response this definition describes. A `file` or `fixture` body is found relative to
    /// `folder` (the current directory when `nil`) and read when a request comes; a `gate` and
    /// a `stream` are left to the registry, which knows its gates and streams by name (made
    /// here, a `stream` body fails its request, saying so).
    public func makeResponse(relativeTo folder: URL? = nil) -> StubResponse {
        makeResponse(relativeTo: folder, streams: .unattached)
    }

    /// The response, with `stream` bodies played from `streams`.
    func makeResponse(relativeTo folder: URL?, streams: NamedStreams) -> StubResponse {
        let folder = folder ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        var response: StubResponse
        switch body {
        case nil: response = StubResponse(statusCode: status, headers: headers)
        case .text(let text): response = StubResponse(data: Data(text.utf8), statusCode: status, headers: headers)
        case .bytes(let bytes): response = StubResponse(data: bytes, statusCode: status, headers: headers)
        case .json(let value):
            var headers = headers
            if !headers.contains(name: "Content-Type") { headers["Content-Type"] = "application/json" }
            response = StubResponse(data: value.serialized(), statusCode: status, headers: headers)
        case .file(let path):
            // A folder URL without a trailing slash is still the folder, not a file beside it.
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
            response = StubResponse(bodyFileAt: url, statusCode: status, headers: headers)
        case .fixture(let name):
            do {
                response = try StubResponse(fixtureAt: try Fixture.url(name, inDirectory: folder), statusCode: status, headers: headers)
            } catch {
                response = StubResponse(statusCode: status, headers: headers)
                response.action = .fail(SendableError(error: error))
            }
        case .stream(let name):
            response = StubResponse(streamedBody: streams.body(named: name), statusCode: status, headers: headers)
        }
        switch failure {
        case nil: break
        case .error(let code): response.action = .fail(SendableError(error: Self.urlError(code)))
        case .afterBytes(let bytes, let code): response = response.failing(afterBytes: bytes, with: Self.urlError(code))
        case .truncated(let bytes): response = response.truncated(afterBytes: bytes)
        case .never: response.action = .neverRespond
        case .passthrough: response.action = .passThrough(transforms: [])
        case .fault(.malformedResponseChunk): response = response.failing(afterBytes: 0, with: NetworkFault.malformedResponseChunk.urlError)
        case .fault(let fault): response.action = .fail(SendableError(error: fault.urlError))
        case .proxy(let base):
            // Validation refuses a base that is not a URL before a response is made from it.
            if let url = URL(string: base) { response.action = .proxy(to: url) } else { response.action = .passThrough(transforms: []) }
        }
        if let requestTime { response.pacing.requestTime = max(0, requestTime) }
        if let responseTime { response.pacing.responseTime = responseTime }
        if let downloadSpeed { response = response.downloadSpeed(.kilobytesPerSecond(downloadSpeed)) }
        return response
    }

    /// The `URLError` with `code` (corelibs' `URLError.Code` knows only its named codes: any
    /// other reads as `.unknown` there, which ``StubDeclaration/validate()`` refuses first).
    static func urlError(_ code: Int) -> URLError {
        #if canImport(FoundationNetworking)
        return URLError(URLError.Code(rawValue: code) ?? .unknown)
        #else
        return URLError(URLError.Code(rawValue: code))
        #endif
    }

    /// Whether `code` is a code `URLError` can carry here.
    static func isKnownURLErrorCode(_ code: Int) -> Bool {
        #if canImport(FoundationNetworking)
        return URLError.Code(rawValue: code) != nil
        #else
        return true
        #endif
    }
}

extension StubResponse {
    /// This response as data, when data can say it: `nil` for a body streamed from code or
    /// over time, an error that is not a `URLError`, a passthrough that transforms, a gate
    /// without a name or an HTTP version other than 1.1.
    public var definition: ResponseDefinition? {
        guard httpVersion == "HTTP/1.1" else { return nil }
        var definition = ResponseDefinition(status: statusCode, headers: headers)
        switch body.source {
        case .data(let data) where data.isEmpty: definition.body = nil
        case .data(let data): definition.body = String(data: data, encoding: .utf8).map { .text($0) } ?? .bytes(data)
        case .file(let url): definition.body = .file(url.path)
        case .stream, .streamed: return nil
        }
        switch action {
        case .respond(nil): break
        case .respond(let bytes?): definition.failure = .truncated(afterBytes: bytes)
        case .fail(let failure):
            guard let error = failure.error as? URLError else { return nil }
            definition.failure =
                ResponseDefinition.NetworkFault(carriedBy: error).map(ResponseDefinition.Failure.fault) ?? .error(code: error.code.rawValue)
        case .failAfterBytes(let bytes, let failure):
            guard let error = failure.error as? URLError else { return nil }
            if bytes == 0, let fault = ResponseDefinition.NetworkFault(carriedBy: error) {
                definition.failure = .fault(fault)
            } else {
                definition.failure = .afterBytes(bytes, errorCode: error.code.rawValue)
            }
        case .neverRespond: definition.failure = .never
        case .passThrough(let transforms):
            guard transforms.isEmpty else { return nil }
            definition.failure = .passthrough
        case .proxy(let base): definition.failure = .proxy(baseURL: base.absoluteString)
        }
        if pacing.requestTime > 0 { definition.requestTime = pacing.requestTime }
        switch pacing.body {
        case .unpaced: break
        case .spread(let seconds): definition.responseTime = seconds
        case .speed(let bytesPerSecond): definition.downloadSpeed = bytesPerSecond / 1000
        }
        if let gate {
            guard let name = gate.name else { return nil }
            definition.gate = name
        }
        return definition
    }
}
