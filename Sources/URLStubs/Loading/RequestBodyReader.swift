import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads a request's body, whichever way it was sent.
package enum RequestBodyReader {
    /// The body `canInit` can see without consuming anything: `httpBody` only. A body stream is
    /// left unread there, since a request the registry passes through still needs it.
    static func visibleBody(of request: URLRequest, in task: URLSessionTask?) -> (body: Data?, isKnown: Bool) {
        if let body = request.httpBody { return (body, true) }
        if request.httpBodyStream != nil { return (nil, false) }
        if let task { return (nil, !(task is URLSessionUploadTask)) }
        // Asked with the request alone (corelibs always is): an upload task's body never
        // appears in it, so a method that carries a body may have one.
        let method = request.httpMethod?.uppercased() ?? "GET"
        return (nil, ["GET", "HEAD", "DELETE", "OPTIONS"].contains(method))
    }

    /// The full body in `startLoading`: `httpBody`, else the (unopened) body stream, else the
    /// upload task's body.
    static func fullBody(of request: URLRequest, uploadBody: Data?) -> Data? {
        if let body = request.httpBody { return body }
        if let stream = request.httpBodyStream { return readAll(stream) }
        return uploadBody
    }

    /// Every byte `stream` gives, read to its end.
    package static func readAll(_ stream: InputStream) -> Data {
        if stream.streamStatus == .notOpen { stream.open() }
        defer { stream.close() }
        var data = Data()
        let size = 64 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        defer { buffer.deallocate() }
        while true {
            let count = stream.read(buffer, maxLength: size)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
