import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// The ways application code hands a request body to `URLSession`; body matchers must see
/// the same bytes whichever is used.
enum BodyTransport: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `request.httpBody` on a data task.
    case httpBody
    /// `request.httpBodyStream` on a data task.
    case bodyStream
    /// `uploadTask(with:from:)`.
    case uploadData
    /// `uploadTask(with:fromFile:)`.
    case uploadFile

    var description: String { rawValue }
}

/// Sends `body` with `request` through a real session of `registry`, the way `transport` says.
func send(_ request: URLRequest, body: Data, via transport: BodyTransport, to registry: StubRegistry) async -> FetchResult {
    sharedStubsActivated
    let session = registry.makeSession()
    defer { session.finishTasksAndInvalidate() }
    var request = request
    func complete(_ continuation: CheckedContinuation<FetchResult, Never>) -> @Sendable (Data?, URLResponse?, (any Error)?) -> Void {
        { data, response, error in
            continuation.resume(returning: FetchResult(data: error == nil ? data : nil, response: response as? HTTPURLResponse, error: error))
        }
    }
    switch transport {
    case .httpBody:
        request.httpBody = body
        return await fetchWithCompletionHandler(request, session: session)
    case .bodyStream:
        request.httpBodyStream = InputStream(data: body)
        return await fetchWithCompletionHandler(request, session: session)
    case .uploadData:
        return await withCheckedContinuation { continuation in
            session.uploadTask(with: request, from: body, completionHandler: complete(continuation)).resume()
        }
    case .uploadFile:
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString)")
        do { try body.write(to: file) } catch { return FetchResult(error: error) }
        defer { try? FileManager.default.removeItem(at: file) }
        return await withCheckedContinuation { continuation in
            session.uploadTask(with: request, fromFile: file, completionHandler: complete(continuation)).resume()
        }
    }
}

/// A `multipart/form-data` body as browsers and `URLSession` clients write it.
struct MultipartForm {
    struct Part {
        var name: String
        var filename: String?
        var contentType: String?
        var body: Data
    }

    var boundary = "Boundary-\(UUID().uuidString)"
    var parts: [Part] = []

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    var data: Data {
        var data = Data()
        for part in parts {
            var disposition = "form-data; name=\"\(part.name)\""
            if let filename = part.filename { disposition += "; filename=\"\(filename)\"" }
            data.append(Data("--\(boundary)\r\nContent-Disposition: \(disposition)\r\n".utf8))
            if let type = part.contentType { data.append(Data("Content-Type: \(type)\r\n".utf8)) }
            data.append(Data("\r\n".utf8))
            data.append(part.body)
            data.append(Data("\r\n".utf8))
        }
        data.append(Data("--\(boundary)--\r\n".utf8))
        return data
    }

    mutating func add(_ name: String, _ text: String) {
        parts.append(Part(name: name, body: Data(text.utf8)))
    }

    mutating func add(_ name: String, filename: String, contentType: String, _ body: Data) {
        parts.append(Part(name: name, filename: filename, contentType: contentType, body: body))
    }
}
