import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

extension WireMockAdmin {
    /// `POST /__admin/near-misses/request`: the three mappings closest to matching a logged
    /// request (WireMock's `NEAR_MISS_COUNT`), closest first; the distance is the share of the
    /// mapping's conditions the request fails.
    func nearMisses(_ body: Data) throws -> Reply {
        guard case .object(let logged) = try Self.parse(body) else {
            return Self.error(422, "Error parsing JSON", "expected a logged request", code: 10, pointer: "/")
        }
        var text: [String: String] = [:]
        for key in ["url", "absoluteUrl", "method", "body"] { if case .string(let value)? = logged[key] { text[key] = value } }
        let address = text["absoluteUrl"] ?? "http://localhost" + (text["url"] ?? "/")
        guard let url = URL(string: address) else {
            return Self.error(422, "Error parsing JSON", "expected a URL, found \(address)", code: 10, pointer: "/url")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = text["method"] ?? "GET"
        if case .object(let headers)? = logged["headers"] {
            for (name, value) in headers { if case .string(let value) = value { urlRequest.addValue(value, forHTTPHeaderField: name) } }
        }
        let request = StubRequest(urlRequest, body: text["body"].map { Data($0.utf8) })
        var misses: [(distance: Double, mapping: JSONValue)] = []
        for entry in listed() {
            let failures = entry.descriptor.matcher.mismatches(for: request)
            guard !failures.isEmpty, let mapping = try? json(entry) else { continue }
            let conditions = max(failures.count, entry.descriptor.matcher.description.components(separatedBy: " && ").count)
            misses.append((Double(failures.count) / Double(conditions), mapping))
        }
        let closest = misses.sorted { $0.distance < $1.distance }.prefix(3)
        return Self.json(
            .object([
                "nearMisses": .array(
                    closest.map { miss in
                        .object([
                            "request": .object(logged), "stubMapping": miss.mapping, "matchResult": .object(["distance": .number(miss.distance)]),
                        ])
                    })
            ]))
    }
}
