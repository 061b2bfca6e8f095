import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// What the probe does with its commands, and how it prints.
enum Probe {
    /// Writes one line to stdout at once, unbuffered, one line per write. Not `print` with
    /// `fflush(NULL)`: glibc's `fflush(NULL)` takes every stream's lock, stdin's too, which the
    /// command thread holds while it waits for a line, so output would wait for the next command.
    static func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text.replacingOccurrences(of: "\n", with: "\\n") + "\n").utf8))
    }

    /// `-1009 The Internet connection appears to be offline.`: the code, then the description.
    static func describe(_ error: any Error) -> String {
        "\((error as? URLError)?.code.rawValue ?? 0) \(error.localizedDescription)"
    }

    /// Loads `url` with `URLSession.shared` and prints the outcome when it comes (a completion
    /// handler: no thread waits for it, so the next command is read at once).
    static func load(_ tag: String, _ url: URL, then: (@Sendable () -> Void)? = nil) {
        URLSession.shared.dataTask(with: url) { data, response, error in
            if let error {
                say("\(tag) failed: \(describe(error))")
            } else {
                say("\(tag): \((response as? HTTPURLResponse)?.statusCode ?? 0) \(String(decoding: data ?? Data(), as: UTF8.self))")
            }
            then?()
        }.resume()
    }

    /// Loads `url` with `URLSession.shared` and prints the body's size and first byte, for
    /// bodies too large to print.
    static func count(_ tag: String, _ url: URL) {
        URLSession.shared.dataTask(with: url) { data, response, error in
            if let error {
                say("\(tag) failed: \(describe(error))")
            } else {
                let first = data?.first.map { String(UnicodeScalar($0)) } ?? ""
                say("\(tag): \((response as? HTTPURLResponse)?.statusCode ?? 0) \(data?.count ?? 0) bytes, first \"\(first)\"")
            }
        }.resume()
    }

    /// Whether the process's environment, which a child process inherits, holds `name`.
    static func environment(_ tag: String, _ name: String) {
        say("\(tag): \(name) is \(getenv(name) == nil ? "not set" : "set")")
    }

    /// Prints each delivery of a streamed body as it comes.
    final class ChunkPrinter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let tag: String
        init(tag: String) { self.tag = tag }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            say("\(tag) chunk: \(String(decoding: data, as: UTF8.self))")
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            say(error.map { "\(tag) failed: \(describe($0))" } ?? "\(tag) done")
            session.finishTasksAndInvalidate()
        }
    }

    static func stream(_ tag: String, _ url: URL) {
        let configuration = URLSessionConfiguration.ephemeral
        StubRegistry.shared.install(into: configuration)
        let session = URLSession(configuration: configuration, delegate: ChunkPrinter(tag: tag), delegateQueue: nil)
        session.dataTask(with: url).resume()
    }

    /// Reads commands until stdin ends or says quit, on a thread of its own (the main thread stays free).
    static func obeyCommands() {
        while let line = readLine() {
            let words = line.split(separator: " ").map(String.init)
            guard let verb = words.first else { continue }
            if verb == "quit" { return }
            guard words.count == 3, let url = URL(string: words[2]) else {
                say("unknown command: \(line)")
                continue
            }
            switch verb {
            case "get": load(words[1], url)
            case "count": count(words[1], url)
            case "env": environment(words[1], words[2])
            case "stream": stream(words[1], url)
            default: say("unknown command: \(line)")
            }
        }
    }

}
