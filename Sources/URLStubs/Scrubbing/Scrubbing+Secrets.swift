import Foundation

/// The values a policy scrubs in an exchange, wherever they stand: what ``Redactor`` then hunts
/// in the rest of a recording and in reports (a server echoing the request, an error page
/// quoting the token).
extension Scrubbing {
    /// The values this policy scrubs in `exchange`. An `Authorization` value also yields its
    /// credential alone (and a `Basic` one its decoded `user:password` and password), a cookie
    /// header each value, a URL its credentials (see ``urlCredentialSecrets(in:)``).
    func secretValues(in exchange: ExchangeParts) -> Set<String> {
        var secrets: Set<String> = []
        for header in Array(exchange.requestHeaders) + Array(exchange.responseHeaders) where headers.contains(header.name.lowercased()) {
            secrets.insert(header.value)
            let name = header.name.lowercased()
            if name == "authorization" || name == "proxy-authorization", let space = header.value.firstIndex(of: " ") {
                let credential = String(header.value[header.value.index(after: space)...]).trimmingCharacters(in: .whitespaces)
                secrets.insert(credential)
                if header.value[..<space].lowercased() == "basic", let decoded = Data(base64Encoded: credential),
                    let pair = String(data: decoded, encoding: .utf8)
                {
                    secrets.insert(pair)
                    if let colon = pair.firstIndex(of: ":") { secrets.insert(String(pair[pair.index(after: colon)...])) }
                }
            }
            if name == "cookie" || name == "set-cookie" {
                let pairs = header.value.split(separator: ";")
                // A Set-Cookie line's first pair is the cookie; the rest are its attributes.
                for pair in name == "cookie" ? pairs[...] : pairs.prefix(1) {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    secrets.insert(String(pair[pair.index(after: equals)...]).trimmingCharacters(in: .whitespaces))
                }
            }
        }
        let strategies = RequestStrategies.scrubbing
        for item in URLComponents(url: exchange.url, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
            guard let value = item.value else { continue }
            if scrubsParameter(item.name) { secrets.insert(value) }
            for strategy in strategies { secrets.formUnion(strategy.secrets(inQueryValue: value, named: item.name, with: self)) }
        }
        secrets.formUnion(urlCredentialSecrets(in: exchange.url))
        if let body = exchange.requestBody { secrets.formUnion(bodySecrets(body, mimeType: exchange.requestMimeType)) }
        secrets.formUnion(bodySecrets(exchange.responseBody, mimeType: exchange.responseMimeType))
        return secrets.filter { !$0.isEmpty && $0 != placeholder }
    }

    /// The values this policy scrubs in a body of type `mimeType`: a form body's listed fields,
    /// a JSON body's listed members, and what a registered format scrubs in it
    /// (``ScrubbingStrategy``).
    package func bodySecrets(_ body: Data, mimeType: String?) -> Set<String> {
        if Self.isForm(mimeType) {
            return Set(Self.formPairs(body).filter { scrubsParameter($0.0) }.map(\.1))
        }
        let strategies = RequestStrategies.scrubbing
        // Found whether or not the module that reads the format has been used (Scrubbing+Inline).
        let formData = formDataSecrets(body, mimeType: mimeType)
        for strategy in strategies {
            if let secrets = strategy.secrets(inBody: body, mimeType: mimeType, with: self) { return secrets.union(formData ?? []) }
        }
        if let formData { return formData }
        guard !jsonFields.isEmpty else { return [] }
        let names = fieldNames
        let holdsMember = Self.mayHoldMember(of: names, in: body)
        let holdsInlineValue = Self.mayHoldInlineValue(of: names, in: body)
        let formats = strategies.filter { $0.mayHoldSecrets(inJSONBody: body, with: self) }
        guard holdsMember || holdsInlineValue || !formats.isEmpty, let json = try? JSONValue(data: body) else { return [] }
        var secrets: Set<String> = []
        if holdsMember { collectJSONSecrets(json, names: names, into: &secrets) }
        if holdsInlineValue { collectInlineSecrets(json, names: names, into: &secrets) }
        for format in formats { secrets.formUnion(format.secrets(inJSON: json, with: self)) }
        return secrets
    }
}
