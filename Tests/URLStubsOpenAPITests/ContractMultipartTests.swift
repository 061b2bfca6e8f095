import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `multipart/form-data` body is checked by its part names only.
@Suite struct ContractMultipartTests {
    static let contract = try! document(
        """
        openapi: 3.0.3
        info: {title: uploads, version: "1"}
        paths:
          /photos:
            post:
              operationId: uploadPhoto
              requestBody:
                required: true
                content:
                  multipart/form-data:
                    schema:
                      type: object
                      required: [file, title]
                      additionalProperties: false
                      properties:
                        file: {type: string, format: binary}
                        title: {type: string, maxLength: 3}
              responses:
                "201": {description: Stored.}
        """)

    private func upload(_ parts: [(name: String, value: String)], contentType: String? = nil) async -> [String] {
        let boundary = "b0undary"
        var body = ""
        for part in parts {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"\r\n\r\n\(part.value)\r\n"
        }
        body += "--\(boundary)--\r\n"
        var request = URLRequest(url: URL(string: "https://photos.test/photos")!)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue(contentType ?? "multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        let registry = StubRegistry()
        registry.checkContract(Self.contract)
        registry.stub(isPath("/photos")) { _ in StubResponse(data: Data(), statusCode: 201) }
        _ = await send(request, through: registry)
        return registry.verify().problems.map(\.summary).map { $0.components(separatedBy: "broke the OpenAPI contract: ").last ?? "" }
    }

    @Test func aBodyWithTheRequiredPartsPassesWhateverTheirContent() async {
        #expect(await upload([("file", "\u{1}\u{2}"), ("title", "far too long for maxLength")]) == [])
    }

    @Test func aMissingRequiredPartAndAnUnlistedPartAreReported() async {
        #expect(
            await upload([("file", "x"), ("caption", "hi")]) == [
                "uploadPhoto (POST /photos): request body: expected the required part \"title\", found the parts \"file\", \"caption\" (#/paths/~1photos/post/requestBody/content/multipart~1form-data/schema/required)",
                "uploadPhoto (POST /photos): request body: expected no part \"caption\" (additionalProperties is false; properties: \"file\", \"title\"), found a part \"caption\" (#/paths/~1photos/post/requestBody/content/multipart~1form-data/schema/additionalProperties)",
            ])
    }

    @Test func aBodyThatIsNotMultipartIsReported() async {
        #expect(
            await upload([("file", "x")], contentType: "multipart/form-data") == [
                "uploadPhoto (POST /photos): request body: expected a multipart/form-data body, found one that does not read (the Content-Type \"multipart/form-data\" names no boundary) (#/paths/~1photos/post/requestBody/content/multipart~1form-data)"
            ])
    }
}
