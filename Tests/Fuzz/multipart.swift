// Fuzz target: the multipart body parser. The first line of the input is the Content-Type,
// the rest is the body.
// fuzz-also-compiles: Sources/URLStubsMultipart Sources/URLStubsGraphQL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// libFuzzer's entry point: called once per generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let newline = data.firstIndex(of: UInt8(ascii: "\n"))
    let contentType = String(decoding: data[..<(newline ?? data.endIndex)], as: UTF8.self)
    let body = newline.map { Data(data[($0 + 1)...]) } ?? Data()
    do {
        let parsed = try MultipartBody(body, contentType: contentType)
        for part in parsed.parts {
            precondition(part.body.count <= body.count, "a part cannot be longer than the body")
            _ = (part.name, part.filename, part.contentType, part.summary)
        }
        // What was read must write and read back to the same parts.
        let rewritten = MultipartBody.serialize(parsed.parts, boundary: parsed.boundary)
        let again = try MultipartBody(rewritten, contentType: contentType)
        precondition(again.parts == parsed.parts, "a round trip keeps every part")
    } catch let error as MultipartError {
        precondition(!error.description.isEmpty, "an error says why")
    } catch {
        preconditionFailure("unexpected error type \(error)")
    }
    // The matchers and the GraphQL reader see the same body without crashing either.
    var request = URLRequest(url: URL(string: "https://fuzz.test/upload")!)
    request.httpMethod = "POST"
    request.setValue(contentType, forHTTPHeaderField: "Content-Type")
    request.httpBody = body
    let stubRequest = StubRequest(request)
    _ = GraphQLRequest.read(stubRequest)
    _ = hasMultipartPart(named: "file", filename: "a.txt", contentType: "text/plain", text: "x").mismatches(for: stubRequest)
    _ = hasMultipartPart(named: "meta", json: ["k": 1]).mismatches(for: stubRequest)
    return 0
}
