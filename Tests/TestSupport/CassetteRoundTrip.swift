import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsRecording

/// Records `requests` into the cassette `file` (mode `.all`, each answered 200 by the
/// network) and returns the cassette's text.
func recordCassette(of requests: [URLRequest], into file: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
    let registry = StubRegistry()
    let recorder = try registry.record(to: file, mode: .all, environment: [:])
    for request in requests {
        let status = await fetch(request, from: registry).statusCode
        #expect(status == 200, "\(request.url?.absoluteString ?? "")", sourceLocation: sourceLocation)
    }
    try recorder.save()
    return String(decoding: try Data(contentsOf: file), as: UTF8.self)
}

/// Expects each of `requests` to be answered from the cassette `file` alone (mode `.none`): a
/// scrubbed recording still matches the live requests that made it.
func expectEachReplays(_ requests: [URLRequest], from file: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let replaying = StubRegistry()
    _ = try replaying.record(to: file, mode: .none, environment: [:])
    for request in requests {
        let status = await fetch(request, from: replaying).statusCode
        #expect(status == 200, "\(request.url?.absoluteString ?? "")", sourceLocation: sourceLocation)
    }
}
