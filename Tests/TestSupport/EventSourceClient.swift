import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A server-sent-events client as an app would write one: a session delegate that parses
/// `text/event-stream` as it arrives, following the HTML standard's event-stream interpretation
/// (lines end with CRLF, CR or LF, even across chunks; `data` lines join with LF; an event is
/// dispatched at a blank line, and only when it has data; `id` without NUL sets the last event
/// id; `retry` with digits only sets the reconnection time; a leading BOM is skipped).
///
/// Its state is what a test asserts between writes: the events so far, whether the stream is
/// open, how it ended.
final class EventSourceClient: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Event: Equatable, CustomStringConvertible {
        var type: String
        var data: String
        var lastEventID: String

        var description: String { "\(type)#\(lastEventID): \(data.debugDescription)" }
    }

    private let lock = NSLock()
    private var received: [Event] = []
    private var receivedAt: [Date] = []
    private var headResponse: HTTPURLResponse?
    private var completion: (error: (any Error)?, Void)?
    private var chunkCount = 0
    private var byteCount = 0
    private var reconnectionTime: Int?
    private var commentLines: [String] = []

    // Parser state: touched by the delegate queue only (serial), one chunk at a time.
    private var lineBuffer: [UInt8] = []
    private var lastByteWasCR = false
    private var sawFirstBytes = false
    private var dataBuffer = ""
    private var eventTypeBuffer = ""
    private var lastEventIDBuffer = ""

    var events: [Event] { lock.lock(); defer { lock.unlock() }; return received }
    /// When each event was dispatched.
    var arrivals: [Date] { lock.lock(); defer { lock.unlock() }; return receivedAt }
    var response: HTTPURLResponse? { lock.lock(); defer { lock.unlock() }; return headResponse }
    var isOpen: Bool { lock.lock(); defer { lock.unlock() }; return headResponse != nil && completion == nil }
    var isComplete: Bool { lock.lock(); defer { lock.unlock() }; return completion != nil }
    var error: (any Error)? { lock.lock(); defer { lock.unlock() }; return completion?.error }
    var chunks: Int { lock.lock(); defer { lock.unlock() }; return chunkCount }
    var bytes: Int { lock.lock(); defer { lock.unlock() }; return byteCount }
    var retry: Int? { lock.lock(); defer { lock.unlock() }; return reconnectionTime }
    var comments: [String] { lock.lock(); defer { lock.unlock() }; return commentLines }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        lock.lock(); headResponse = response as? HTTPURLResponse; lock.unlock()
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock(); chunkCount += 1; byteCount += data.count; lock.unlock()
        var bytes = [UInt8](data)
        if !sawFirstBytes {
            sawFirstBytes = true
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        }
        for byte in bytes {
            if lastByteWasCR {
                lastByteWasCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
                lastByteWasCR = byte == UInt8(ascii: "\r")
                process(line: String(decoding: lineBuffer, as: UTF8.self))
                lineBuffer.removeAll(keepingCapacity: true)
            } else {
                lineBuffer.append(byte)
            }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock(); completion = (error, ()); lock.unlock()
    }

    private func process(line: String) {
        if line.isEmpty {
            dispatch()
            return
        }
        if line.hasPrefix(":") {
            lock.lock(); commentLines.append(String(line.dropFirst())); lock.unlock()
            return
        }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = Substring(line)
            value = ""
        }
        switch field {
        case "event": eventTypeBuffer = String(value)
        case "data": dataBuffer += value + "\n"
        case "id" where !value.contains("\0"): lastEventIDBuffer = String(value)
        case "retry" where !value.isEmpty && value.allSatisfy({ $0.isASCII && $0.isNumber }):
            lock.lock(); reconnectionTime = Int(value); lock.unlock()
        default: break
        }
    }

    private func dispatch() {
        defer {
            dataBuffer = ""
            eventTypeBuffer = ""
        }
        guard !dataBuffer.isEmpty else { return }
        let event = Event(
            type: eventTypeBuffer.isEmpty ? "message" : eventTypeBuffer, data: String(dataBuffer.dropLast()),
            lastEventID: lastEventIDBuffer)
        lock.lock(); received.append(event); receivedAt.append(Date()); lock.unlock()
    }
}
