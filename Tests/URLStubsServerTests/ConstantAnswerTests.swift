import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// A stub whose answer is a constant in memory (the one-line stubs) is written by the server
/// itself, and a keep-alive client's repeated head is read once: the client, the journal and
/// the hooks still see what any other stub gives them, request by request, whether the head
/// repeats, asks for `HEAD` or asks to close.
@Suite("Serving stubs: constant answers")
struct ConstantAnswerTests {
    @Test func repeatedHeadsOnOneConnectionAreEachAnsweredJournaledAndHooked() async throws {
        let registry = StubRegistry()
        let activations = Locked(0)
        let finishes = Locked<[String]>([])
        registry.onActivation { _, _, _ in activations.withLock { $0 += 1 } }
        registry.afterFinish { request, _, response, error in
            finishes.withLock { $0.append("\(request.method) \(response?.statusCode ?? 0) \(error.map { "\($0)" } ?? "ok")") }
        }
        let server = try registry.serve()
        defer { server.stop() }
        let body = Data("constant body".utf8)
        let stub = registry.stub(.get, server.url("/constant").absoluteString, headers: ["X-Kind": "constant"], data: body)
        let headStub = registry.stub(.head, server.url("/constant").absoluteString, headers: ["X-Kind": "constant"], data: body)
        let head = "GET /constant HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAccept: */*\r\n\r\n"
        let answers = try await offThePool {
            let connection = try RawConnection(port: server.port)
            defer { connection.close() }
            var answers: [RawConnection.Response] = []
            for _ in 0..<3 {
                try connection.send(head)
                answers.append(try connection.readResponse())
            }
            try connection.send(head.replacingOccurrences(of: "GET ", with: "HEAD "))
            answers.append(try connection.readResponse(forHEAD: true))
            try connection.send(head)
            answers.append(try connection.readResponse())
            // The same request asking to close: its answer says so, and the connection ends.
            try connection.send(head.replacingOccurrences(of: "Accept: */*", with: "Accept: */*\r\nConnection: close"))
            answers.append(try connection.readResponse())
            #expect(connection.readToEnd(timeout: 10).end == .closed)
            return answers
        }
        #expect(answers.map(\.status) == [200, 200, 200, 200, 200, 200])
        #expect(answers.map(\.text) == ["constant body", "constant body", "constant body", "", "constant body", "constant body"])
        #expect(answers.allSatisfy { $0.value("Content-Length") == "13" && $0.value("X-Kind") == "constant" })
        #expect(answers.map { $0.value("Connection") } == [nil, nil, nil, nil, nil, "close"])
        let deadline = Date().addingTimeInterval(20)
        while finishes.withLock({ $0.count }) < 6 || registry.journal.count < 6, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let journal = registry.journal
        #expect(journal.map(\.statusCode) == [200, 200, 200, 200, 200, 200])
        #expect(journal.map(\.bodyBytesDelivered) == [13, 13, 13, 0, 13, 13])
        #expect(journal.map { $0.stub === headStub ? "head" : $0.stub === stub ? "get" : "?" } == ["get", "get", "get", "head", "get", "get"])
        #expect(journal.allSatisfy { $0.errorDescription == nil })
        #expect(journal.map(\.request.method) == ["GET", "GET", "GET", "HEAD", "GET", "GET"])
        #expect(stub.activationCount == 5 && headStub.activationCount == 1)
        #expect(activations.withLock { $0 } == 6)
        #expect(finishes.withLock { $0 } == ["GET 200 ok", "GET 200 ok", "GET 200 ok", "HEAD 200 ok", "GET 200 ok", "GET 200 ok"])
        #expect(throws: Never.self) { try registry.verifyOrThrow() }
    }
}
#endif
