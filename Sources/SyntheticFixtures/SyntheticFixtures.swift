import Foundation

/// Large fixtures made in memory, never committed: the inputs of the parser speed figures
/// (`urlstubs-bench`) and of the tests that check the parsers are linear, which must read
/// exactly the same bytes to be compared.
public enum SyntheticFixtures {
    /// A `.response` file with `count` headers: mostly distinct names, every tenth one a
    /// repeat of `X-Repeated` (joined into one field), and a `Set-Cookie` every hundredth.
    public static func responseFile(headers count: Int) -> Data {
        var text = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
        text.reserveCapacity(count * 32)
        for index in 0..<count {
            if index % 100 == 0 {
                text += "Set-Cookie: c\(index)=v\r\n"
            } else if index % 10 == 0 {
                text += "X-Repeated: r\(index)\r\n"
            } else {
                text += "X-Header-\(index): value \(index)\r\n"
            }
        }
        text += "Content-Length: 5\r\n\r\nhello"
        return Data(text.utf8)
    }

    /// A HAR archive of `count` typical API entries (about 900 bytes each): a few request and
    /// response headers, a JSON body, a base64 body every tenth entry, and timings.
    public static func archive(entries count: Int) -> Data {
        var text = #"{"log":{"version":"1.2","creator":{"name":"synthetic","version":"1"},"entries":["#
        text.reserveCapacity(count * 900)
        for index in 0..<count {
            if index > 0 { text += "," }
            let content =
                index % 10 == 0
                ? #"{"size":4,"mimeType":"application/octet-stream","text":"AAECAw==","encoding":"base64"}"#
                : #"{"size":20,"mimeType":"application/json","text":"{\"id\":\#(index),\"ok\":true}"}"#
            let millisecond = String(index % 1000)
            text += """
                {"startedDateTime":"2024-05-01T10:00:00.\(String(repeating: "0", count: 3 - millisecond.count) + millisecond)Z",
                "time":\(index % 50),"request":{"method":"GET","url":"https://api.example.com/items/\(index)?page=\(index % 7)",
                "httpVersion":"HTTP/1.1","headers":[{"name":"Accept","value":"application/json"},{"name":"User-Agent","value":"bench/1.0"},
                {"name":"Authorization","value":"Bearer token-\(index)"}],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},
                "response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1",
                "headers":[{"name":"Content-Type","value":"application/json"},{"name":"Cache-Control","value":"no-cache"},
                {"name":"X-Request-Id","value":"req-\(index)"},{"name":"Set-Cookie","value":"s=\(index)"}],
                "cookies":[],"content":\(content),"redirectURL":"","headersSize":-1,"bodySize":20},
                "cache":{},"timings":{"send":0,"wait":\(index % 50),"receive":0}}
                """
        }
        text += "]}}"
        return Data(text.utf8)
    }
}
