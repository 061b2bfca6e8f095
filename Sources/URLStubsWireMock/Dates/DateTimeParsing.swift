import Foundation

/// Reading a date/time as WireMock's matchers and `parseDate` helper do by default: ISO 8601
/// (zoned `2021-06-24T13:40:27+01:00`, `…Z`, local `2021-06-24T12:40:27`, a date alone), then
/// the three HTTP formats: RFC 1123 (`Tue, 01 Jun 2021 15:16:17 GMT`), RFC 1036
/// (`Tuesday, 01-Jun-21 15:16:17 GMT`) and asctime (`Tue Jun  1 15:16:17 2021`).
enum DateTimeParsing {
    private static let httpFormats: [JavaDateFormat] = [
        .constant("EEE, d MMM yyyy HH:mm:ss z"), .constant("EEEE, dd-MMM-yy HH:mm:ss z"), .constant("EEE MMM d HH:mm:ss yyyy"),
    ]

    /// `text` in one of the default formats, or `nil`.
    static func parse(_ text: String) -> CivilTime? {
        if let iso = iso8601(text) { return iso }
        for format in httpFormats {
            if let time = format.parse(text) { return time }
        }
        return nil
    }

    /// `text` in `format` (a Java pattern, `epoch` for milliseconds or `unix` for seconds since
    /// 1970), or in the default formats when `format` is `nil`.
    static func parse(_ text: String, format: JavaDateFormat?, named name: String?) -> CivilTime? {
        switch name {
        case "epoch", "unix":
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else { return nil }
            let seconds = name == "epoch" ? value / 1000 : value
            return CivilTime(Date(timeIntervalSince1970: seconds), offset: 0)
        default:
            if let format { return format.parse(text) }
            return parse(text)
        }
    }

    /// ISO 8601: `yyyy-MM-dd`, optionally `THH:mm`, `:ss`, `.fraction`, then `Z` or an offset
    /// (`+01:00`, `+0100`, `+01`), optionally followed by a zone name in brackets.
    static func iso8601(_ text: String) -> CivilTime? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func take(_ character: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), take(45), let month = digits(2), take(45), let day = digits(2) else { return nil }
        guard (1...12).contains(month), (1...CivilTime.daysInMonth(year, month)).contains(day) else { return nil }
        var time = CivilTime(year: year, month: month, day: day)
        if index == bytes.count { return time }
        guard take(84) || take(116) || take(32), let hour = digits(2), take(58), let minute = digits(2), hour < 24, minute < 60 else {
            return nil
        }
        time.hour = hour
        time.minute = minute
        if take(58) {
            guard let second = digits(2), second < 60 else { return nil }
            time.second = second
            if take(46) || take(44) {
                var fraction = ""
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                    fraction.append(Character(UnicodeScalar(bytes[index])))
                    index += 1
                }
                guard !fraction.isEmpty else { return nil }
                time.nanosecond = Int((fraction + "000000000").prefix(9)) ?? 0
            }
        }
        if index == bytes.count { return time }
        var rest = Substring(String(decoding: bytes[index...], as: UTF8.self))
        guard let offset = JavaDateFormat.offset(in: &rest) else { return nil }
        time.offset = offset
        if rest.first == "[", rest.last == "]" { rest = "" }
        return rest.isEmpty ? time : nil
    }
}
