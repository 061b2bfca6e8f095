import Foundation

/// Response bytes as they go on the wire: status lines, header fields, and whole answers the
/// server makes itself (a rejected request, an unmatched one, a stub's mistake).
enum WireAnswer {
    /// `HTTP/1.1 <status> <reason>`, the fields, and the blank line.
    static func head(status: Int, fields: [(name: String, value: String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + fields.count * 40)
        bytes.append(contentsOf: "HTTP/1.1 ".utf8)
        bytes.append(contentsOf: String(status).utf8)
        bytes.append(32)
        bytes.append(contentsOf: reason(for: status).utf8)
        bytes.append(contentsOf: "\r\n".utf8)
        for field in fields {
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        bytes.append(contentsOf: "\r\n".utf8)
        return bytes
    }

    /// A whole answer with a plain-text body (none for a `HEAD` request).
    static func simple(
        status: Int, body: String, closes: Bool, extraFields: [(name: String, value: String)] = [], headRequest: Bool = false
    ) -> [UInt8] {
        let bodyBytes = Array(body.utf8)
        var fields: [(name: String, value: String)] = [
            ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", String(bodyBytes.count)),
        ]
        fields += extraFields
        if closes { fields.append(("Connection", "close")) }
        var bytes = head(status: status, fields: fields)
        if !headRequest { bytes += bodyBytes }
        return bytes
    }

    /// The answer to bytes that are not a request the server takes (see ``RequestRejection``);
    /// the connection closes after it.
    static func rejection(_ rejection: RequestRejection) -> [UInt8] {
        simple(
            status: rejection.status,
            body: "URLStubs: the stub server cannot answer this request: \(rejection.reason). (No stub was asked.)\n",
            closes: true)
    }

    /// The name of the header field that says why the server answered itself rather than a
    /// stub: `URLStubs-Error: unmatchedRequest` (no stub matched; the near-miss report is the
    /// body), the ``URLStubs/StubError`` case of a stub's mistake (`invalidHeader`, …) or the
    /// ``URLStubs/FixtureError`` kind of a file it could not read (`notFound`, `unreadable`).
    static let errorField = "URLStubs-Error"

    /// Standard reason phrases (RFC 9110); clients read the number, so any other status gets
    /// a neutral word.
    static func reason(for status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 206: return "Partial Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 417: return "Expectation Failed"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }
}
