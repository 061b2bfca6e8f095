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
    func urlRequest(defaultHost: String) -> URLRequest? {
        guard let url = url(defaultHost: defaultHost) else { return nil }
        var request = URLRequest(url: url)
        request.httpMethod = method
        var order: [String] = []
        var joined: [String: (name: String, value: String)] = [:]
        for field in headers {
            let key = field.name.lowercased()
            if let earlier = joined[key] {
                joined[key] = (earlier.name, earlier.value + (key == "cookie" ? "; " : ", ") + field.value)
            } else {
                order.append(key)
                joined[key] = field
            }
        }
        for key in order {
            guard let field = joined[key] else { continue }
            request.setValue(field.value, forHTTPHeaderField: field.name)
        }
        if announcedBody { request.httpBody = body }
        return request
    }

    private func url(defaultHost: String) -> URL? {
        if target.first == "/" {
            let host = value(of: "Host") ?? defaultHost
            guard !host.isEmpty, !host.contains(where: { "/?#@ \\".contains($0) }) else { return nil }
            return Self.url("http://" + host + target)
        }
        let lowered = target.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return Self.url(target) }
        if target == "*" { return Self.url("http://" + (value(of: "Host") ?? defaultHost) + "/") }
        return nil
    }

    /// `text` as a URL, with the characters a URL cannot hold percent-encoded.
    private static func url(_ text: String) -> URL? {
        if let url = URL(string: text) { return url }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "/?#%:@[]")
        return text.addingPercentEncoding(withAllowedCharacters: allowed).flatMap { URL(string: $0) }
    }
}
