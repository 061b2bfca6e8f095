import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(AddOns) import URLStubs

/// Multipart bodies as the engine's registry sees them: an unmatched request's parts (or why
/// its body cannot be read) in the report, and a `hasMultipartPart` per named part in the
/// suggested stub.
///
/// Registered on first use of a multipart matcher (``register()``).
@_spi(AddOns) public struct MultipartStrategy: RequestStrategy {
    /// After GraphQL, whose uploads are multipart bodies described as operations.
    @_spi(AddOns) public var precedence: Int { 10 }

    /// The strategy; ``register()`` makes it known to every registry.
    @_spi(AddOns) public init() {}

    private static let registration: Void = RequestStrategies.register(MultipartStrategy())

    /// Registers the strategy for every registry of the process (once; later calls are free).
    @_spi(AddOns) public static func register() { _ = registration }

    /// The request's parts reading, or why it cannot be read; none when it is not multipart.
    @_spi(AddOns) public func reportLines(for request: StubRequest) -> [String] {
        guard let contentType = request.value(forHTTPHeaderField: "Content-Type"), MultipartBody.isMultipart(contentType: contentType),
            let body = request.body
        else { return [] }
        do {
            let multipart = try MultipartBody(body, contentType: contentType)
            return ["  \(multipart.mediaType) parts: " + (multipart.parts.isEmpty ? "none" : multipart.parts.map(\.summary).joined(separator: ", "))]
        } catch {
            return ["  the body claims \(MediaType(contentType).essence) but cannot be read: \(error)"]
        }
    }

    /// The first five named parts, by name (and file name and type for a file).
    @_spi(AddOns) public func suggestion(for request: StubRequest, scrubbing: Scrubbing) -> StubSuggestion? {
        guard let contentType = request.value(forHTTPHeaderField: "Content-Type"), MultipartBody.isMultipart(contentType: contentType),
            let body = request.body, let multipart = try? MultipartBody(body, contentType: contentType)
        else { return nil }
        var matchers: [String] = []
        for part in multipart.parts.prefix(5) {
            guard let name = part.name else { continue }
            var arguments = ["named: \(literal(name))"]
            if let filename = part.filename {
                arguments.append("filename: \(literal(filename))")
                if let type = part.contentType { arguments.append("contentType: \(literal(type))") }
            }
            matchers.append("hasMultipartPart(\(arguments.joined(separator: ", ")))")
        }
        return StubSuggestion(matchers: matchers)
    }
}
