import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// Multipart bodies as the engine's registry sees them: an unmatched request's parts (or why
/// its body cannot be read) in the report, and a `hasMultipartPart` per named part in the
/// suggested stub.
///
/// Registered on first use of a multipart matcher (``register()``).
package struct MultipartStrategy: RequestStrategy {
    /// After GraphQL, whose uploads are multipart bodies described as operations.
    package var precedence: Int { 10 }

    /// The strategy; ``register()`` makes it known to every registry.
    package init() {}

    private static let registration: Void = {
        RequestStrategies.register(MultipartStrategy())
        RequestPatternKinds.register(MultipartPartKind())
    }()

    /// Registers the strategy for every registry of the process (once; later calls are free).
    package static func register() { _ = registration }

    /// The request's parts reading, or why it cannot be read; none when it is not multipart.
    package func reportLines(for request: StubRequest) -> [String] {
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
    package func suggestion(for request: StubRequest, scrubbing: Scrubbing) -> StubSuggestion? {
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
