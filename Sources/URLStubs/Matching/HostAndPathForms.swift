import Foundation

// The forms in which hosts and paths are compared, on both sides: the matcher's argument and
// the request's URL. A host compares in its ASCII (IDNA) form, so `bücher.example` and
// `xn--bcher-kva.example` are one host; a path compares percent-decoded except for `%2F`,
// which stays an escape, so `/a%2Fb` (one segment) is not `/a/b` (two).

/// `host` lower-cased, with every non-ASCII label in its `xn--` Punycode form (RFC 3492):
/// `BÜCHER.example` becomes `xn--bcher-kva.example`. Labels are lower-cased and composed
/// (NFC) first; the rest of IDNA's mapping (UTS 46) is not applied.
func asciiHost(_ host: String) -> String {
    let lowered = host.lowercased()
    guard !lowered.utf8.allSatisfy({ $0 < 0x80 }) else { return lowered }
    return lowered.split(separator: ".", omittingEmptySubsequences: false).map { label -> String in
        guard !label.utf8.allSatisfy({ $0 < 0x80 }) else { return String(label) }
        let composed = String(label).precomposedStringWithCanonicalMapping
        return Punycode.encode(Array(composed.unicodeScalars)).map { "xn--" + $0 } ?? composed
    }.joined(separator: ".")
}

/// The Punycode encoder of RFC 3492 (section 6.3), for host labels.
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700

    /// `label` encoded (`bücher` → `bcher-kva`); `nil` for a label too long to be a host label
    /// many times over, where the arithmetic could overflow.
    static func encode(_ label: [Unicode.Scalar]) -> String? {
        guard label.count <= 1024 else { return nil }
        let codes = label.map { Int($0.value) }
        var output: [UInt8] = codes.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var next = 0x80, delta = 0, bias = 72
        while handled < codes.count {
            // The smallest code point not handled yet (a label is short: a scan is fine).
            let smallest = codes.filter { $0 >= next }.min()!
            delta += (smallest - next) * (handled + 1)
            next = smallest
            for code in codes {
                if code < next { delta += 1 }
                guard code == next else { continue }
                var quotient = delta
                var k = base
                while true {
                    let threshold = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if quotient < threshold { break }
                    output.append(digit(threshold + (quotient - threshold) % (base - threshold)))
                    quotient = (quotient - threshold) / (base - threshold)
                    k += base
                }
                output.append(digit(quotient))
                bias = adapt(delta, points: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            next += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }

    private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}

/// `percentEncodedPath` with every escape decoded except `%2F` (an encoded `/`, kept as the
/// escape, upper-cased), so `/a%2Fb` stays one segment while `/a%20b` reads `/a b`. A path
/// whose escapes decode to invalid UTF-8 is returned as it is.
func decodedPath(_ percentEncodedPath: String) -> String {
    func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
    let bytes = Array(percentEncodedPath.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
        if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
            let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
        {
            let byte = high << 4 | low
            if byte == UInt8(ascii: "/") {
                output += Array("%2F".utf8)
            } else {
                output.append(byte)
            }
            index += 3
        } else {
            output.append(bytes[index])
            index += 1
        }
    }
    let text = String(decoding: output, as: UTF8.self)
    // Decoding repairs invalid UTF-8 into U+FFFD, which would make two different paths equal.
    guard !text.unicodeScalars.contains("\u{FFFD}") || percentEncodedPath.unicodeScalars.contains("\u{FFFD}") else {
        return percentEncodedPath
    }
    return text
}
