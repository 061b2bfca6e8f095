import Foundation

/// Credentials written in a URL (`https://user:password@host/…`): the `Authorization` header's
/// other spelling (a client sends them as `Authorization: Basic …`), so they are scrubbed while
/// ``Scrubbing/headers`` lists `Authorization`, which ``Scrubbing/default`` does.
///
/// The user is scrubbed as well as the password: the user alone is often the whole credential
/// (`https://<token>@git.example.com/…`, an API key given as the user with an empty password).
/// Both become the placeholder in place, so a URL keeps its shape
/// (`https://<scrubbed>:<scrubbed>@host/…`). Copies elsewhere are hunted as for every secret:
/// the password, the `user:password` pair (what a `Basic` credential encodes), and the user
/// only when no password comes with it; an account name beside a password ("admin") is
/// replaced in the URL only, so the same word elsewhere in a recording stays.
extension Scrubbing {
    /// `true` when this policy scrubs credentials in URLs.
    var scrubsURLCredentials: Bool { headers.contains("authorization") }

    /// `url` with its user and password each replaced by the placeholder (percent-encoded, as a
    /// URL requires); `url` itself when it carries none.
    func scrubbingCredentials(of url: URL) -> URL {
        guard scrubsURLCredentials, var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.percentEncodedUser != nil || components.percentEncodedPassword != nil
        else { return url }
        if components.percentEncodedUser != nil {
            components.percentEncodedUser = placeholder.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? ""
        }
        if components.percentEncodedPassword != nil {
            components.percentEncodedPassword = placeholder.addingPercentEncoding(withAllowedCharacters: .urlPasswordAllowed) ?? ""
        }
        if let scrubbed = components.url { return scrubbed }
        // Never the credentials as they were.
        components.percentEncodedUser = nil
        components.percentEncodedPassword = nil
        return components.url ?? URL(fileURLWithPath: "/")
    }

    /// The credentials of `url` whose copies are hunted elsewhere (see the extension's overview).
    func urlCredentialSecrets(in url: URL) -> Set<String> {
        guard scrubsURLCredentials, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [] }
        let user = components.user ?? ""
        let password = components.password ?? ""
        guard !user.isEmpty || !password.isEmpty else { return [] }
        var secrets: Set<String> = ["\(user):\(password)"]
        if password.isEmpty { secrets.insert(user) } else { secrets.insert(password) }
        for encoded in [components.percentEncodedPassword, password.isEmpty ? components.percentEncodedUser : nil] {
            if let encoded, !encoded.isEmpty { secrets.insert(encoded) }
        }
        return secrets.filter { !$0.isEmpty && $0 != ":" }
    }
}

extension Redactor {
    /// `text` with the user and password of every URL in it (`scheme://user:password@host`)
    /// replaced by the placeholder: a report prints URLs whose credentials are too short to be
    /// hunted as copies (`:pw@`), and URLs other than the request's (a redirect's target).
    static func hidingURLCredentials(in text: String, placeholder: String) -> String {
        guard text.contains("://"), text.contains("@") else { return text }
        var result = ""
        var rest = text[...]
        while let separator = rest.range(of: "://") {
            result += rest[..<separator.upperBound]
            rest = rest[separator.upperBound...]
            // The authority ends where a path, a query, a fragment or the surrounding text starts.
            let end = rest.firstIndex { Self.authorityEnds.contains($0) } ?? rest.endIndex
            guard let at = rest[..<end].lastIndex(of: "@") else { continue }
            let userInfo = rest[..<at]
            result += userInfo.contains(":") ? placeholder + ":" + placeholder : placeholder
            rest = rest[at...]
        }
        return result + rest
    }

    private static let authorityEnds: Set<Character> = ["/", "?", "#", " ", "\t", "\n", "\r", "\r\n", "\"", "'", "\\", "`"]
}
