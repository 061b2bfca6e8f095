import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubRegistry {
    /// Stubs one method and URL with a JSON body, in one line (the Mocker habit).
    ///
    /// ```swift
    /// registry.stub(.get, "https://api.example.com/users", json: ["users": [["id": 1]]])
    /// registry.stub(.post, "https://api.example.com/users", statusCode: 201, json: ["id": 2])
    /// ```
    ///
    /// The URL must match exactly, query included (its parameters in any order): it is
    /// `isMethod(method) && isAbsoluteURLString(url)`, named `"GET https://…"` unless `name`
    /// says otherwise. `json` is what `JSONSerialization` accepts (dictionaries, arrays,
    /// strings, numbers, `Bool`, `NSNull`), as for ``hasJSONBody(_:)``, or an `Encodable` value,
    /// which `JSONEncoder()` encodes as ``StubResponse/init(json:statusCode:headers:encoder:)``
    /// does. A value that is neither (a `Date` inside a dictionary, say) fails each request the
    /// stub answers with an error naming its type.
    @discardableResult
    public func stub(
        _ method: StubRequest.Method, _ url: String, name: String? = nil, statusCode: Int = 200,
        headers: HeaderFields = [:], json: Any,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) -> StubDescriptor {
        var headers = headers
        if !headers.contains(name: "Content-Type") {
            headers["Content-Type"] = "application/json"
        }
        let answer: StubAnswer
        do {
            answer = .constant(StubResponse(data: try StubResponse.jsonBody(json), statusCode: statusCode, headers: headers))
        } catch {
            let failure = SendableError(error: error)
            answer = .closure { _, _ in throw failure.error }
        }
        return add(
            isMethod(method) && isAbsoluteURLString(url), name: name ?? "\(method) \(url)", times: nil,
            location: StubLocation(fileID: fileID, filePath: filePath, line: line), answer: answer)
    }

    /// Stubs one method and URL with a body of bytes (none by default), in one line.
    ///
    /// ```swift
    /// registry.stub(.delete, "https://api.example.com/users/1", statusCode: 204)
    /// registry.stub(.get, "https://cdn.example.com/logo.png", headers: ["Content-Type": "image/png"], data: png)
    /// ```
    ///
    /// The URL must match exactly, query included (its parameters in any order).
    @discardableResult
    public func stub(
        _ method: StubRequest.Method, _ url: String, name: String? = nil, statusCode: Int = 200,
        headers: HeaderFields = [:], data: Data = Data(),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) -> StubDescriptor {
        add(
            isMethod(method) && isAbsoluteURLString(url), name: name ?? "\(method) \(url)", times: nil,
            location: StubLocation(fileID: fileID, filePath: filePath, line: line),
            answer: .constant(StubResponse(data: data, statusCode: statusCode, headers: headers)))
    }
}
