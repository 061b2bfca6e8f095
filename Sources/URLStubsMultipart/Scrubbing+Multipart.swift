import Foundation
import URLStubs

/// Multipart bodies (`multipart/form-data` uploads): a part whose field name
/// ``Scrubbing/queryParameters`` lists (the names of form fields, as for an
/// `application/x-www-form-urlencoded` body) has its whole content replaced by the placeholder,
/// a file part too; the other parts are scrubbed as bodies of their own (a JSON part's members,
/// a GraphQL upload's `operations`), except a multipart part, which is left as it is. A body
/// that holds nothing to scrub, or cannot be read as multipart, keeps its bytes; a scrubbed one
/// is written again with its own boundary.
extension Scrubbing {
    /// The most bytes of a listed part's content hunted as a copy elsewhere: a credential is
    /// short, and a file's megabytes would make every later search cost as much.
    static let multipartSecretLimit = 4_096

    /// `body` with its listed parts scrubbed; `nil` when `contentType` is not multipart.
    func scrubMultipart(_ body: Data, contentType: String?) -> Data? {
        guard MultipartBody.isMultipart(contentType: contentType), let contentType else { return nil }
        guard let multipart = try? MultipartBody(body, contentType: contentType) else { return body }
        var changed = false
        let parts = multipart.parts.map { original -> MultipartPart in
            var part = original
            if let name = part.name, scrubsParameter(name) {
                part.body = Data(placeholder.utf8)
            } else if !MultipartBody.isMultipart(contentType: part.contentType) {
                part.body = scrub(part.body, mimeType: part.contentType) ?? part.body
            }
            changed = changed || part.body != original.body
            return part
        }
        return changed ? MultipartBody.serialize(parts, boundary: multipart.boundary) : body
    }

    /// The values of `body`'s listed parts (text up to ``multipartSecretLimit`` bytes), and the
    /// secrets of its other parts; `nil` when `contentType` is not multipart.
    func multipartSecrets(_ body: Data, contentType: String?) -> Set<String>? {
        guard MultipartBody.isMultipart(contentType: contentType), let contentType else { return nil }
        guard let multipart = try? MultipartBody(body, contentType: contentType) else { return [] }
        var secrets: Set<String> = []
        for part in multipart.parts {
            if let name = part.name, scrubsParameter(name) {
                if part.body.count <= Self.multipartSecretLimit, let text = String(data: part.body, encoding: .utf8) { secrets.insert(text) }
            } else if !MultipartBody.isMultipart(contentType: part.contentType) {
                secrets.formUnion(bodySecrets(part.body, mimeType: part.contentType))
            }
        }
        return secrets
    }
}

/// Multipart bodies scrubbed part by part.
extension MultipartStrategy: ScrubbingStrategy {
    /// A multipart body with its listed parts scrubbed.
    package func scrub(body: Data, mimeType: String?, with scrubbing: Scrubbing) -> Data? {
        scrubbing.scrubMultipart(body, contentType: mimeType)
    }

    /// The secrets of a multipart body's parts.
    package func secrets(inBody body: Data, mimeType: String?, with scrubbing: Scrubbing) -> Set<String>? {
        scrubbing.multipartSecrets(body, contentType: mimeType)
    }
}
