import Foundation

/// The string formats checked: `date-time` and `date` (RFC 3339), `uuid`, `email` and `uri`.
/// Other formats are annotations and pass.
enum StringFormat {
    /// `true` or `false` for a checked format, `nil` for any other.
    static func check(_ text: String, format: String) -> Bool? {
        let bytes = Array(text.utf8)
        switch format {
        case "date-time": return isDateTime(bytes)
        case "date": return bytes.count == 10 && isDate(bytes[...])
        case "uuid": return isUUID(bytes)
        case "email": return isEmail(bytes)
        case "uri": return isURI(bytes)
        default: return nil
        }
    }

    /// What a format wants, for reports.
    static func explanation(_ format: String) -> String {
        switch format {
        case "date-time": return "RFC 3339, like 2024-05-01T12:30:00Z"
        case "date": return "RFC 3339 full-date, like 2024-05-01"
        case "uuid": return "8-4-4-4-12 hexadecimal digits"
        case "email": return "local@domain"
        case "uri": return "an absolute URI with a scheme"
        default: return format
        }
    }

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    private static func isDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        let base = bytes.startIndex
        guard bytes.count == 10, bytes[base + 4] == UInt8(ascii: "-"), bytes[base + 7] == UInt8(ascii: "-"),
            let year = digits(bytes[base..<(base + 4)]), let month = digits(bytes[(base + 5)..<(base + 7)]),
            let day = digits(bytes[(base + 8)..<(base + 10)]), (1...12).contains(month), day >= 1
        else { return false }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    private static func isDateTime(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 20, isDate(bytes[0..<10]), bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hour = digits(bytes[11..<13]), let minute = digits(bytes[14..<16]), let second = digits(bytes[17..<19]),
            hour < 24, minute < 60, second <= 60
        else { return false }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
            guard index > start, index < bytes.count else { return false }
        }
        let zone = bytes[index...]
        if zone.count == 1 { return zone.first == UInt8(ascii: "Z") || zone.first == UInt8(ascii: "z") }
        guard zone.count == 6, zone.first == UInt8(ascii: "+") || zone.first == UInt8(ascii: "-"), bytes[index + 3] == UInt8(ascii: ":"),
            let zoneHour = digits(bytes[(index + 1)..<(index + 3)]), let zoneMinute = digits(bytes[(index + 4)..<(index + 6)])
        else { return false }
        return zoneHour < 24 && zoneMinute < 60
    }

    private static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        for (position, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(position) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let isHex = (byte >= 48 && byte <= 57) || (byte >= 97 && byte <= 102) || (byte >= 65 && byte <= 70)
                guard isHex else { return false }
            }
        }
        return true
    }

    /// One `@`, a local part and a dotted domain, no spaces: a plausibility check, not RFC 5321.
    private static func isEmail(_ bytes: [UInt8]) -> Bool {
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), at > 0, at < bytes.count - 1,
            bytes.lastIndex(of: UInt8(ascii: "@")) == at
        else { return false }
        guard !bytes.contains(where: { $0 <= 32 || $0 == 127 }) else { return false }
        let domain = bytes[(at + 1)...]
        return domain.contains(UInt8(ascii: ".")) && domain.first != UInt8(ascii: ".") && domain.last != UInt8(ascii: ".")
    }

    /// A scheme (`letter *(letter / digit / + / - / .)`), a `:`, and no spaces or controls.
    private static func isURI(_ bytes: [UInt8]) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
        let first = bytes[0]
        guard (first >= 65 && first <= 90) || (first >= 97 && first <= 122) else { return false }
        for byte in bytes[1..<colon] {
            let ok = (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == 43 || byte == 45 || byte == 46
            guard ok else { return false }
        }
        return !bytes.contains(where: { $0 <= 32 || $0 == 127 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") })
    }
}
