import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubResponse {
    /// A text response: `string` as UTF-8, `Content-Type: text/plain; charset=utf-8` unless
    /// `headers` gives one.
    ///
    /// ```swift
    /// registry.stub(isPath("/greeting")) { _ in StubResponse(string: "héllo") }
    /// ```
    public init(string: String, statusCode: Int = 200, headers: HeaderFields = [:]) {
        var headers = headers
        if !headers.contains(name: "Content-Type") { headers["Content-Type"] = "text/plain; charset=utf-8" }
        self.init(data: Data(string.utf8), statusCode: statusCode, headers: headers)
    }
}
