// The README's "see it work": a small app talks to a fake backend, with no network at all.
// Every step checks what the client received; the demo exits non-zero if one misbehaves, so
// it doubles as a smoke test.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsStreaming

// MARK: - A tiny fake backend

let registry = StubRegistry()  // unmatched requests fail with a near-miss report
let api = "https://api.shop.test"

registry.stub(isHost("api.shop.test") && isMethod(.get) && isPath("/products"), name: "product list") { _ in
    try StubResponse(json: ["products": [["id": 1, "name": "Teapot"], ["id": 2, "name": "Kettle"]]])
}.expect(.once)
let image = Data((0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
registry.stub(isHost("cdn.shop.test") && isPath("/images/:name"), name: "product image") { _ in
    StubResponse(data: image, headers: ["Content-Type": "image/png"]).downloadSpeed(.threeG)
}.expect(.atLeastOnce)
registry.stub(isPath("/old-logo.png"), name: "moved logo") { _ in
    StubResponse(data: Data(), statusCode: 301, headers: ["Location": "https://cdn.shop.test/images/logo.png"])
}
registry.stub(isMethod(.post) && isPath("/login") && hasJSONBody(["user": "ada", "password": "secret"]), name: "login") { _ in
    StubResponse(data: Data(#"{"ok":true}"#.utf8), headers: ["Set-Cookie": "session=s3cr3t; Path=/"])
}.expect(.once)
registry.stub(isPath("/me"), name: "profile") { request in
    let signedIn = request.value(forHTTPHeaderField: "Cookie")?.contains("session=s3cr3t") == true
    return signedIn ? StubResponse(data: Data(#"{"user":"ada"}"#.utf8)) : StubResponse(data: Data(), statusCode: 401)
}
registry.stub(isPath("/orders"), name: "orders while offline") { _ in
    StubResponse(error: URLError(.notConnectedToInternet)).requestTime(0.2, responseTime: 0)
}
// The test (here, the demo) writes the price feed while the app reads it, and decides when
// the checkout answers.
let priceFeed = LiveStream(name: "prices")
registry.stub(isHost("api.shop.test") && isPath("/live/prices"), name: "price feed") { _ in
    .stream(priceFeed, headers: ["Content-Type": "text/event-stream"])
}.expect(.once)
let checkoutGate = ResponseGate()
registry.stub(isMethod(.post) && isPath("/checkout"), name: "checkout") { _ in
    try StubResponse(json: ["order": 42], statusCode: 201)
}.expect(.once).held(by: checkoutGate)

// MARK: - Output

var failures = 0
@MainActor func check(_ condition: Bool, _ what: String) {
    print(condition ? "  ✓ \(what)" : "  ✗ \(what)")
    if !condition { failures += 1 }
}
func title(_ text: String) { print("\n▸ \(text)") }

/// Draws a progress bar for a download, fed by the session delegate: redrawn in place with
/// `\r` on a terminal; in a log or a file (CI), a whole line at each quarter instead of one
/// endless line of redraws.
final class ProgressPrinter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var received = 0
    private var expected: Int64 = 0
    private var chunks = 0
    private var quartersPrinted = 0
    private let start = Date()
    private let redrawsInPlace = isatty(STDOUT_FILENO) != 0
    private var continuation: CheckedContinuation<(Data, Int, (any Error)?), Never>?
    private var body = Data()

    func load(_ request: URLRequest, in session: URLSession) async -> (Data, Int, (any Error)?) {
        await withCheckedContinuation { continuation in
            lock.lock(); self.continuation = continuation; lock.unlock()
            session.dataTask(with: request).resume()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        lock.lock(); expected = response.expectedContentLength; lock.unlock()
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        received += data.count
        chunks += 1
        body.append(data)
        let (done, total) = (received, max(expected, 1))
        let quarter = Int(Double(done) / Double(total) * 4)
        let newQuarter = quarter > quartersPrinted
        if newQuarter { quartersPrinted = quarter }
        lock.unlock()
        let elapsed = max(Date().timeIntervalSince(start), 0.001)
        let rate = Double(done) / elapsed / 1000
        let eta = Double(Int(total) - done) / max(rate * 1000, 1)
        let filled = Int(Double(done) / Double(total) * 30)
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 30 - filled)
        let line = String(
            format: "  [%@] %6.1f / %.1f KB  %5.0f KB/s  ETA %4.1f s", bar,
            Double(done) / 1000, Double(total) / 1000, rate, max(eta, 0))
        if redrawsInPlace {
            print("\r" + line, terminator: "")
            fflush(nil)  // all output streams: the bar must show now, not when the line ends
        } else if newQuarter {
            print(line)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if redrawsInPlace { print("") }
        lock.lock()
        let result = (body, chunks, error)
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume(returning: result)
    }
}

/// The app's live price list: reads `text/event-stream` from a session delegate, one event
/// per blank-line-terminated block, and keeps the prices it has shown.
final class PriceFeedReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""
    private var shown: [String] = []
    private var writes = 0
    private var ended = false

    var prices: [String] { lock.lock(); defer { lock.unlock() }; return shown }
    var chunks: Int { lock.lock(); defer { lock.unlock() }; return writes }
    var isEnded: Bool { lock.lock(); defer { lock.unlock() }; return ended }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock(); defer { lock.unlock() }
        writes += 1
        buffer += String(decoding: data, as: UTF8.self)
        while let end = buffer.range(of: "\n\n") {
            let block = buffer[..<end.lowerBound]
            buffer.removeSubrange(..<end.upperBound)
            let data = block.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { $0.dropFirst(6) }.joined(separator: "\n")
            if !data.isEmpty { shown.append(data) }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock(); ended = true; lock.unlock()
    }
}

/// Waits (without blocking a thread) until `condition` holds, for at most `seconds`.
func eventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return true
}

/// The app's checkout screen: what it shows while its order request is out.
final class CheckoutScreen: @unchecked Sendable {
    private let lock = NSLock()
    private var text = "Cart"
    var shows: String {
        get { lock.lock(); defer { lock.unlock() }; return text }
        set { lock.lock(); text = newValue; lock.unlock() }
    }

    func placeOrder(in session: URLSession) async {
        shows = "Placing your order…"
        var order = URLRequest(url: URL(string: "\(api)/checkout")!)
        order.httpMethod = "POST"
        do {
            let (data, response) = try await session.data(for: order)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let number = (try? JSONSerialization.jsonObject(with: data) as? [String: Int])?["order"] ?? 0
            shows = status == 201 ? "Order \(number) placed" : "Checkout failed (\(status))"
        } catch {
            shows = "Checkout failed (\(error))"
        }
    }
}

// MARK: - The story

print("URLStubs demo: an app and a fake backend, no network.")
let session = registry.makeSession()
let demoStart = Date()

title("1. A JSON list")
do {
    let (data, response) = try await session.data(from: URL(string: "\(api)/products")!)
    let text = String(decoding: data, as: UTF8.self)
    print("  GET /products -> \((response as? HTTPURLResponse)?.statusCode ?? 0) \(text)")
    check(text.contains("Teapot"), "the product list arrived")
} catch {
    check(false, "the product list arrived (\(error))")
}

title("2. A product image over 3G (600 KB at 400 KB/s)")
let progress = ProgressPrinter()
let progressSession = registry.makeSession(delegate: progress)
let downloadStart = Date()
let (imageData, imageChunks, imageError) = await progress.load(
    URLRequest(url: URL(string: "https://cdn.shop.test/images/teapot.png")!),
    in: progressSession)
let downloadTime = Date().timeIntervalSince(downloadStart)
check(imageError == nil && imageData == image, "all 600,000 bytes arrived in order, in \(imageChunks) chunks")
check(downloadTime > 1.2 && downloadTime < 20, String(format: "it took %.2f s (3G pace: 1.5 s)", downloadTime))

title("3. A redirect")
do {
    let (data, response) = try await session.data(from: URL(string: "\(api)/old-logo.png")!)
    print("  GET /old-logo.png -> 301 -> \(response.url?.absoluteString ?? "?") (\(data.count) bytes)")
    check(response.url?.host == "cdn.shop.test", "the redirect was followed to the CDN")
} catch {
    check(false, "the redirect was followed (\(error))")
}

title("4. A cookie set at login and sent back")
do {
    var login = URLRequest(url: URL(string: "\(api)/login")!)
    login.httpMethod = "POST"
    login.httpBody = Data(#"{"user":"ada","password":"secret"}"#.utf8)
    _ = try await session.data(for: login)
    let (data, response) = try await session.data(from: URL(string: "\(api)/me")!)
    print("  POST /login sets session=…; GET /me -> \((response as? HTTPURLResponse)?.statusCode ?? 0) \(String(decoding: data, as: UTF8.self))")
    check((response as? HTTPURLResponse)?.statusCode == 200, "the session cookie came back")
} catch {
    check(false, "the session cookie came back (\(error))")
}

title("5. Offline")
do {
    _ = try await session.data(from: URL(string: "\(api)/orders")!)
    check(false, "the app saw it was offline")
} catch let error as URLError {
    print("  GET /orders -> URLError(.\(error.code == .notConnectedToInternet ? "notConnectedToInternet" : "\(error.code.rawValue)"))")
    check(error.code == .notConnectedToInternet, "the app saw it was offline")
} catch {
    check(false, "the app saw it was offline (\(error))")
}

title("6. A request nobody stubbed: the near-miss report")
// The app would show an empty list; the test learns why from the error, and again from verify().
let unstubbedURL = "https://api.shop.example/products?page=2"
do {
    _ = try await session.data(from: URL(string: unstubbedURL)!)
    check(false, "the unmatched request failed with a report")
} catch let error as URLError {
    // The app sees a URLError; printed, it is the report (its localized description too).
    print("\(error)".split(separator: "\n").map { "  │ " + $0 }.joined(separator: "\n"))
    check(
        error.code == .resourceUnavailable && error.localizedDescription.contains("api.shop.test"),
        "the report names the closest stub and why it refused")
} catch {
    check(false, "the unmatched request failed with a report (\(error))")
}

title("7. A live price feed, and a checkout the test answers when it chooses")
let feedReader = PriceFeedReader()
let feedSession = registry.makeSession(delegate: feedReader)
feedSession.dataTask(with: URL(string: "\(api)/live/prices")!).resume()
do {
    try await priceFeed.waitForConnection(timeout: 5)
    print("  the app opened GET /live/prices (text/event-stream); the test writes to it:")
    var eachArrivedAlone = true
    for (index, price) in ["12", "13", "11"].enumerated() {
        try priceFeed.send(event: ServerSentEvent(event: "price", id: "\(index + 1)", data: #"{"teapot":\#(price)}"#))
        let arrived = await eventually { feedReader.prices.count == index + 1 }
        eachArrivedAlone = eachArrivedAlone && arrived && feedReader.prices.count == index + 1
        print("  test sends price \(price)  ->  app shows \(feedReader.prices.last ?? "nothing")")
        try await Task.sleep(nanoseconds: 250_000_000)
    }
    try priceFeed.finish()
    _ = await eventually { feedReader.isEnded }
    check(
        eachArrivedAlone && feedReader.chunks == 3,
        "the app showed each price as it was sent, before the next (\(feedReader.prices.count) events, \(feedReader.chunks) writes)")
} catch {
    check(false, "the live feed reached the app (\(error))")
}
let checkout = CheckoutScreen()
let ordering = Task { await checkout.placeOrder(in: session) }
do {
    let held = try await checkoutGate.waitForRequest(timeout: 5)
    let whileHeld = checkout.shows
    print("  \(held.method) /checkout is held: the app shows \"\(whileHeld)\"")
    try await Task.sleep(nanoseconds: 300_000_000)
    checkoutGate.release()
    await ordering.value
    print("  the test releases it: the app shows \"\(checkout.shows)\"")
    check(
        whileHeld == "Placing your order…" && checkout.shows == "Order 42 placed",
        "the app showed its loading state until the test let the server answer")
} catch {
    check(false, "the checkout request arrived (\(error))")
}

title("8. What the backend saw, and what verify() tells a test at its end")
for entry in registry.journal {
    print("  \(entry)")
}
let report = registry.verify()
print("  A test that made step 6's request by mistake would fail with:")
print(report.description.split(separator: "\n").map { "  │ " + $0 }.joined(separator: "\n"))
check(!report.problems.contains { $0.kind == .unmetExpectation }, "every stub was used as expected")
check(
    report.problems.filter { $0.kind == .unexpectedRequest }.count == 1 && report.description.contains("Closest stubs:"),
    "verify() explains step 6's request even if the app swallowed the error")
// Step 6 was on purpose: declared, the request is expected and verification passes.
registry.expectUnmatched(isHost("api.shop.example"))
print("  Declared with registry.expectUnmatched(isHost(\"api.shop.example\")), as a test of it would:")
print("  │ \(registry.verify())")
check(registry.verify().isSuccess, "an unmatched request made on purpose passes verification")

progressSession.finishTasksAndInvalidate()
feedSession.finishTasksAndInvalidate()
session.finishTasksAndInvalidate()
print(
    String(
        format: "\n%@ in %.1f s.", failures == 0 ? "All steps behaved" : "\(failures) step(s) misbehaved",
        Date().timeIntervalSince(demoStart)))
exit(failures == 0 ? 0 : 1)
