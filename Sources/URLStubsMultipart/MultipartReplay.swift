import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// Multipart bodies as HAR replay compares them: part by part (name, file name, type and
/// content), never by the boundary, which changes on every run.
extension MultipartStrategy: ReplayStrategy {
    /// A part as replay compares it.
    private struct PartKey: Sendable, Equatable {
        let name: String?
        let filename: String?
        let contentType: String?
        let body: Data

        var displayName: String { name.map { "\"\($0)\"" } ?? "(unnamed)" }
    }

    /// The parts of a `POST`, `PUT` or `PATCH` with a multipart body that can be read.
    package func replayIdentity(of request: StubRequest, sent: StubRequest?, volatile: VolatileFields) -> ReplayIdentity? {
        guard ["POST", "PUT", "PATCH"].contains(request.method), let contentType = request.value(forHTTPHeaderField: "Content-Type"),
            MultipartBody.isMultipart(contentType: contentType), let multipart = try? MultipartBody(request.body ?? Data(), contentType: contentType)
        else { return nil }
        let parts = multipart.parts.map { PartKey(name: $0.name, filename: $0.filename, contentType: $0.contentType, body: $0.body) }
        let key = parts.map { part in
            [part.name ?? "", part.filename ?? "", part.contentType ?? "", part.body.base64EncodedString()].map { "\($0.count):\($0)" }.joined()
        }.joined(separator: ";")
        return ReplayIdentity(
            format: "multipart", key: key, summary: "multipart with \(parts.count) part\(parts.count == 1 ? "" : "s")", payload: parts
        ) { live in
            guard let actual = live?.payload as? [PartKey] else { return nil }
            if parts == actual { return [] }
            func names(_ parts: [PartKey]) -> String { parts.map(\.displayName).joined(separator: ", ") }
            guard parts.count == actual.count else { return ["expected the recorded multipart parts \(names(parts)), got \(names(actual))"] }
            return zip(parts, actual).enumerated().compactMap { index, pair -> String? in
                let (expected, got) = pair
                guard expected != got else { return nil }
                let wanted = "expected \(expected.displayName) with \(describeBody(expected.body))"
                let sent = "got \(got.displayName) with \(describeBody(got.body))"
                return "multipart part \(index + 1) differs from the recorded one: \(wanted), \(sent)"
            }
        }
    }
}
