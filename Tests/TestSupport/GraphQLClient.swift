import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A GraphQL client that puts operations on the wire the way Apollo iOS does (its
/// `JSONRequest`): a POST with `operationName`, `query` and `variables` and the
/// `X-APOLLO-OPERATION-NAME` / `X-APOLLO-OPERATION-TYPE` / `apollographql-client-name`
/// headers; automatic persisted queries as a GET carrying only the document's SHA-256 in
/// `extensions`, retried as a POST with the document when the server answers
/// `PersistedQueryNotFound`; and batches as one POST of an array (apollo-link-batch-http).
struct ApolloStyleClient: Sendable {
    struct Operation: Sendable {
        let name: String
        let type: String
        let document: String
        let variables: [String: JSONValueBox]
    }

    /// A variable value that can cross threads (`Any` cannot).
    struct JSONValueBox: @unchecked Sendable {
        let value: Any
    }

    let session: URLSession
    let endpoint: URL

    static func operation(_ name: String, _ document: String, variables: [String: Any] = [:]) -> Operation {
        let type = document.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("mutation") ? "mutation" : "query"
        return Operation(name: name, type: type, document: document, variables: variables.mapValues(JSONValueBox.init))
    }

    /// POST with the document: what Apollo sends without persisted queries.
    func fetch(_ operation: Operation) async throws -> [String: Any] {
        var body: [String: Any] = ["operationName": operation.name, "query": operation.document]
        if !operation.variables.isEmpty { body["variables"] = operation.variables.mapValues(\.value) }
        return try await send(post(body, operation: operation))
    }

    /// Hash first (GET), then the document (POST) when the server does not know the hash.
    /// Returns the response and how many requests it took.
    func fetchPersisted(_ operation: Operation) async throws -> (response: [String: Any], requests: Int) {
        let extensions: [String: Any] = ["persistedQuery": ["version": 1, "sha256Hash": SHA256.hex(of: Data(operation.document.utf8))]]
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "extensions", value: try jsonText(extensions)),
            URLQueryItem(name: "operationName", value: operation.name),
            URLQueryItem(name: "variables", value: try jsonText(operation.variables.mapValues(\.value))),
        ]
        var get = URLRequest(url: components.url!)
        get.httpMethod = "GET"
        addHeaders(to: &get, operation: operation)
        let first = try await send(get)
        let errors = first["errors"] as? [[String: Any]] ?? []
        guard errors.contains(where: { $0["message"] as? String == "PersistedQueryNotFound" }) else { return (first, 1) }
        var body: [String: Any] = ["operationName": operation.name, "query": operation.document, "extensions": extensions]
        if !operation.variables.isEmpty { body["variables"] = operation.variables.mapValues(\.value) }
        return (try await send(post(body, operation: operation)), 2)
    }

    /// One POST of an array; the answers come back as an array in the same order.
    func fetchBatch(_ operations: [Operation]) async throws -> [[String: Any]] {
        let bodies: [[String: Any]] = operations.map { operation in
            var body: [String: Any] = ["operationName": operation.name, "query": operation.document]
            if !operation.variables.isEmpty { body["variables"] = operation.variables.mapValues(\.value) }
            return body
        }
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: bodies)
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200,
            let answers = try JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else {
            throw ClientError("a batch answered \(String(decoding: data, as: UTF8.self))")
        }
        return answers
    }

    private func post(_ body: [String: Any], operation: Operation) throws -> URLRequest {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        addHeaders(to: &request, operation: operation)
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        return request
    }

    private func addHeaders(to request: inout URLRequest, operation: Operation) {
        request.setValue(operation.name, forHTTPHeaderField: "X-APOLLO-OPERATION-NAME")
        request.setValue(operation.type, forHTTPHeaderField: "X-APOLLO-OPERATION-TYPE")
        request.setValue("URLStubsTests", forHTTPHeaderField: "apollographql-client-name")
        request.setValue(
            "multipart/mixed;deferSpec=20220824,application/graphql-response+json,application/json",
            forHTTPHeaderField: "Accept")
    }

    private func send(_ request: URLRequest) async throws -> [String: Any] {
        let (data, response) = try await session.data(for: request)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ClientError("status \((response as? HTTPURLResponse)?.statusCode ?? -1): \(String(decoding: data, as: UTF8.self))")
        }
        return object
    }

    private func jsonText(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    struct ClientError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// SHA-256 (FIPS 180-4), for the persisted-query hashes a real client computes. Linux's
/// Foundation has no digest API, and the test target takes no dependency.
enum SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    static func hex(of data: Data) -> String {
        var hash: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var message = [UInt8](data)
        let bitLength = UInt64(message.count) * 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { (value >> count) | (value << (32 - count)) }
        for chunk in stride(from: 0, to: message.count, by: 64) {
            var w = [UInt32](repeating: 0, count: 64)
            for index in 0..<16 {
                let base = chunk + index * 4
                w[index] = UInt32(message[base]) << 24 | UInt32(message[base + 1]) << 16 | UInt32(message[base + 2]) << 8 | UInt32(message[base + 3])
            }
            for index in 16..<64 {
                let s0 = rotate(w[index - 15], 7) ^ rotate(w[index - 15], 18) ^ (w[index - 15] >> 3)
                let s1 = rotate(w[index - 2], 17) ^ rotate(w[index - 2], 19) ^ (w[index - 2] >> 10)
                w[index] = w[index - 16] &+ s0 &+ w[index - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7])
            for index in 0..<64 {
                let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                let choice = (e & f) ^ (~e & g)
                let temp1 = h &+ s1 &+ choice &+ k[index] &+ w[index]
                let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let temp2 = s0 &+ majority
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
            }
            for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { hash[index] = hash[index] &+ value }
        }
        return hash.map { String(format: "%08x", $0) }.joined()
    }
}
