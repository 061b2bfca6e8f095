import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads a request's body, whichever way it was sent.
enum RequestBodyReader {
    /// The body `canInit` can see without consuming anything: `httpBody` only. A body stream is
    /// left unread there, since a request the registry passes through still needs it.
    static func visibleBody(of request: URLRequest) -> (body: Data?, isKnown: Bool) {
        if let body = request.httpBody { return (body, true) }
        if request.httpBodyStream != nil { return (nil, false) }
        let method = request.httpMethod?.uppercased() ?? "GET"
        // An upload task's body never appears in the request on Linux.
        #if canImport(FoundationNetworking)
        let bodyMayBeHidden = !["GET", "HEAD", "DELETE", "OPTIONS"].contains(method)
        #else
        let bodyMayBeHidden = false
        #endif
        return (nil, !bodyMayBeHidden)
    }

    /// The full body in `startLoading`: `httpBody`, else the (unopened) body stream, else the
    /// upload task's body.
    static func fullBody(of request: URLRequest, uploadBody: Data?) -> Data? {
        if let body = request.httpBody { return body }
        if let stream = request.httpBodyStream { return readAll(stream) }
        return uploadBody
    }

    static func readAll(_ stream: InputStream) -> Data {
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
