import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsMultipart
@testable import TestSupport

/// `hasMultipartPart` as data: it reads back as a declaration with the wing's kind, and the
/// declaration answers like the matcher.
@Suite("Multipart declarations")
struct MultipartDeclarationTests {
    @Test(arguments: FetchAPI.allCases)
    func aPartReadsBackAndAnswersAsADeclaration(api: FetchAPI) async throws {
        let code = StubRegistry()
        let stub = code.stub(
            hasMultipartPart(named: "avatar", filename: "me.png", data: Data([1, 2, 3])), responses: [StubResponse(statusCode: 201)])
        let declaration = try #require(stub.declaration)
        let reread = try #require(try StubDeclaration.read(from: JSONEncoder().encode(declaration), source: "m.json").first)
        #expect(reread.request == declaration.request)

        let registry = StubRegistry()
        try registry.stub(reread)
        let boundary = "b0undary"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"me.png\"\r\n\r\n".utf8)
        body.append(Data([1, 2, 3]))
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        var request = URLRequest(url: URL(string: "https://api.test/upload")!)
        request.httpMethod = "POST"
        request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        #expect(await fetch(request, from: registry, using: api).statusCode == 201)
    }
}
