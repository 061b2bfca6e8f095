import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

let registry = StubRegistry()
registry.stub(isHost("api.example.com") && isPath("/users"), name: "users list") { _ in
    try StubResponse(jsonObject: ["users": [["id": 1, "name": "Ada"]]])
}
let session = registry.makeSession()
let (data, response) = try await session.data(from: URL(string: "https://api.example.com/users")!)
print((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
