import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ParsedHTTPRequest {
    /// The request as a stub sees it: `http://` with the client's `Host` and target (an
    /// absolute target, as a client sends to a proxy, is taken as it is), the method, the
    /// header fields, and the body when the head announced one.
    ///
    /// A `URLRequest` keeps one value per field name, so a field sent more than once becomes
    /// one value joined with `", "` (RFC 9110 §5.3), `"; "` for `Cookie` (RFC 9113 §8.2.3).
    /// `nil` when no URL can be made (a `Host` holding `/`, `@` or spaces).
    func urlRequest(url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        if method != "GET" { request.httpMethod = method }
        var fields: [String: String] = [:]
        fields.reserveCapacity(headers.count)
        if headers.count <= 24 {
            // The usual head: repeats found by comparing names in place, with no lowercased
            // copies or hashing (a few dozen comparisons at most).
            for (index, field) in headers.enumerated() {
                if let first = headers[..<index].first(where: { $0.name.isSameFieldName(as: field.name) }) {
                    fields[first.name]! += (field.name.isSameFieldName(as: "Cookie") ? "; " : ", ") + field.value
                } else {
                    fields[field.name] = field.value
                }
            }
            request.allHTTPHeaderFields = fields
            if announcedBody { request.httpBody = body }
            return request
        }
        // A repeat is joined to the first field of its name, found by its lowercased name: linear
        // in the number of fields, however many distinct names a client sends.
        var firstNames: [String: String] = [:]
        for field in headers {
            let key = Self.lowercasedASCII(field.name)
            if let first = firstNames[key] {
                fields[first]! += (key == "cookie" ? "; " : ", ") + field.value
            } else {
                firstNames[key] = field.name
                fields[field.name] = field.value
            }
        }
        request.allHTTPHeaderFields = fields
        if announcedBody { request.httpBody = body }
        return request
    }

    /// The URL the client asked for; `nil` when none can be made.
    func url(defaultHost: String) -> URL? {
        if target.utf8.first == UInt8(ascii: "/") {
            let host = value(of: "Host") ?? defaultHost
            // A Host that would change the URL's shape (a path, a user, another authority).
            guard !host.isEmpty, !host.utf8.contains(where: Self.changesURLShape) else { return nil }
            return Self.url("http://" + host + target)
        }
        let lowered = target.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return Self.url(target) }
        if target == "*" { return Self.url("http://" + (value(of: "Host") ?? defaultHost) + "/") }
        return nil
    }

    /// `name` with its ASCII letters lowercased (field names are ASCII tokens).
    private static func lowercasedASCII(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= 65 && $0 <= 90 }) else { return name }
        return String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// `/`, `?`, `#`, `@`, space, backslash.
    private static func changesURLShape(_ byte: UInt8) -> Bool {
        switch byte {
        case 47, 63, 35, 64, 32, 92: return true
        default: return false
        }
    }

    /// `text` as a URL, with the characters a URL cannot hold percent-encoded.
    private static func url(_ text: String) -> URL? {
        if let url = URL(string: text) { return url }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "/?#%:@[]")
        return text.addingPercentEncoding(withAllowedCharacters: allowed).flatMap { URL(string: $0) }
    }
}
