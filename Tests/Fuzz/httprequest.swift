// Fuzz target: the stub server's HTTP/1.1 request parser. Any bytes are what a client sent.
// fuzz-also-compiles: Sources/URLStubsServer/HTTPRequestParser.swift Sources/URLStubsServer/HTTPRequestParser+Head.swift Sources/URLStubsServer/ParsedHTTPRequest.swift
import Foundation

/// Every event the parser makes from `bytes`, fed in pieces of `piece` bytes (0: all at once),
/// as comparable text.
private func events(of bytes: UnsafeRawBufferPointer, piece: Int) -> [String] {
    var parser = HTTPRequestParser(maximumHeaderBytes: 2048, maximumBodyBytes: 4096)
    var found: [String] = []
    var offset = 0
    repeat {
        let end = piece == 0 ? bytes.count : min(bytes.count, offset + piece)
        parser.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
        offset = end
        while let event = parser.next() {
            switch event {
            case .request(let request):
                precondition(request.body.count <= 4096, "a body past the limit came out")
                precondition(request.minorVersion <= 9 && !request.method.isEmpty && !request.target.isEmpty)
                let fields = request.headers.map { "\($0.name)=\($0.value)" }.joined(separator: "|")
                found.append("\(request.method) \(request.target) 1.\(request.minorVersion) \(fields) \(request.body.count) \(request.keepsAlive)")
            case .expectsContinue:
                // Depends on how much of the body arrived with the head: not compared.
                break
            case .rejected(let rejection):
                precondition([400, 408, 413, 414, 417, 431, 501, 505].contains(rejection.status), "status \(rejection.status)")
                precondition(!rejection.reason.isEmpty)
                found.append("rejected \(rejection.status)")
            }
        }
    } while offset < bytes.count
    return found
}

/// libFuzzer's entry point: called once per generated input. The same bytes, whole, byte by
/// byte and in pieces of 7, make the same requests.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: bytes, count: count)
    let whole = events(of: input, piece: 0)
    precondition(events(of: input, piece: 1) == whole, "byte by byte differs from whole")
    precondition(events(of: input, piece: 7) == whole, "pieces of 7 differ from whole")
    return 0
}
