import Foundation

/// A date pattern as Java's `DateTimeFormatter` writes one (`yyyy-MM-dd'T'HH:mm:ssXXX`), read
/// once into fields and literals, then used to format and parse without a formatter object.
///
/// Letters: `y`/`u` year (`yy`: two digits), `M`/`L` month (`MMM` `Jan`, `MMMM` `January`),
/// `d` day, `D` day of year, `E` weekday (`EEE` `Tue`, `EEEE` `Tuesday`), `a` AM/PM,
/// `H` `h` `k` `K` hours, `m` minutes, `s` seconds, `S` fraction digits, `Z` `X` `x` offsets,
/// `z` zone abbreviation, `VV` zone identifier; `'…'` quotes text and `''` is a quote. Other
/// letters are refused when the pattern is read, naming the letter.
struct JavaDateFormat: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case literal(String)
        case field(Character, Int)
    }

    let pattern: String
    let parts: [Part]

    private static let letters: Set<Character> = ["y", "u", "M", "L", "d", "D", "E", "a", "H", "h", "k", "K", "m", "s", "S", "Z", "X", "x", "z", "V"]

    /// Reads `pattern`; throws a sentence naming the first letter it cannot use.
    /// A pattern written in this library's code, known to parse. Not `try!` on the typed-throwing
    /// initializer in a static property: Swift 6.3.1 crashes emitting the module for iOS on that
    /// ("Found ownership error" in SILGen cleanup).
    static func constant(_ pattern: String) -> JavaDateFormat {
        do {
            return try JavaDateFormat(pattern)
        } catch {
            preconditionFailure("the built-in date pattern \(pattern) does not parse: \(error)")
        }
    }

    init(_ pattern: String) throws {
        self.pattern = pattern
        var parts: [Part] = []
        let characters = Array(pattern)
        var index = 0
        var literal = ""
        while index < characters.count {
            let character = characters[index]
            if character == "'" {
                if index + 1 < characters.count, characters[index + 1] == "'" {
                    literal.append("'")
                    index += 2
                    continue
                }
                guard let close = characters[(index + 1)...].firstIndex(of: "'") else {
                    throw DatePatternProblem(pattern: pattern, position: index + 1, reason: "a quote that is never closed")
                }
                literal += String(characters[(index + 1)..<close])
                index = close + 1
                continue
            }
            if character.isLetter, character.isASCII {
                guard Self.letters.contains(character) else {
                    throw DatePatternProblem(
                        pattern: pattern, position: index + 1,
                        reason: "the letter '\(character)', which URLStubs does not format; quote text as 'text'")
                }
                var count = 1
                while index + count < characters.count, characters[index + count] == character { count += 1 }
                if !literal.isEmpty {
                    parts.append(.literal(literal))
                    literal = ""
                }
                parts.append(.field(character, count))
                index += count
                continue
            }
            if character == "[" || character == "]" || character == "#" || character == "{" || character == "}" {
                throw DatePatternProblem(
                    pattern: pattern, position: index + 1, reason: "'\(character)', reserved by Java; quote it as '\(character)'")
            }
            literal.append(character)
            index += 1
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    static let shortMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let shortWeekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// `date` shown in `zone`, appended to `output`.
    func format(_ date: Date, in zone: TimeZone, into output: inout String) {
        let time = CivilTime(date, in: zone)
        for part in parts {
            switch part {
            case .literal(let text): output += text
            case .field(let letter, let count): Self.append(letter, count, of: time, date: date, zone: zone, to: &output)
            }
        }
    }

    func format(_ date: Date, in zone: TimeZone) -> String {
        var output = ""
        format(date, in: zone, into: &output)
        return output
    }

    private static func pad(_ value: Int, _ width: Int, to output: inout String) {
        let digits = String(abs(value))
        if value < 0 { output += "-" }
        if digits.count < width { output += String(repeating: "0", count: width - digits.count) }
        output += digits
    }

    private static func offsetText(_ seconds: Int, colon: Bool, minutes: Bool = true, zulu: Bool) -> String {
        if seconds == 0, zulu { return "Z" }
        var text = seconds < 0 ? "-" : "+"
        let hours = abs(seconds) / 3600
        let mins = abs(seconds) % 3600 / 60
        pad(hours, 2, to: &text)
        if minutes || mins != 0 {
            if colon { text += ":" }
            pad(mins, 2, to: &text)
        }
        return text
    }

    private static func append(_ letter: Character, _ count: Int, of time: CivilTime, date: Date, zone: TimeZone, to output: inout String) {
        let offset = time.offset ?? 0
        switch letter {
        case "y", "u": count == 2 ? pad(time.year % 100, 2, to: &output) : pad(time.year, count, to: &output)
        case "M", "L":
            switch count {
            case 1, 2: pad(time.month, count, to: &output)
            case 3: output += shortMonths[time.month - 1]
            default: output += months[time.month - 1]
            }
        case "d": pad(time.day, count, to: &output)
        case "D": pad(time.dayOfYear, count, to: &output)
        case "E": output += count >= 4 ? weekdays[time.weekday - 1] : shortWeekdays[time.weekday - 1]
        case "a": output += time.hour < 12 ? "AM" : "PM"
        case "H": pad(time.hour, count, to: &output)
        case "h": pad(time.hour % 12 == 0 ? 12 : time.hour % 12, count, to: &output)
        case "k": pad(time.hour == 0 ? 24 : time.hour, count, to: &output)
        case "K": pad(time.hour % 12, count, to: &output)
        case "m": pad(time.minute, count, to: &output)
        case "s": pad(time.second, count, to: &output)
        case "S":
            var digits = String(time.nanosecond)
            digits = String(repeating: "0", count: 9 - digits.count) + digits
            output += count <= 9 ? String(digits.prefix(count)) : digits + String(repeating: "0", count: count - 9)
        case "Z":
            switch count {
            case 1...3: output += offsetText(offset, colon: false, zulu: false)
            case 4: output += offset == 0 ? "GMT" : "GMT" + offsetText(offset, colon: true, zulu: false)
            default: output += offsetText(offset, colon: true, zulu: true)
            }
        case "X", "x":
            let zulu = letter == "X"
            switch count {
            case 1: output += offsetText(offset, colon: false, minutes: false, zulu: zulu)
            case 2, 4: output += offsetText(offset, colon: false, zulu: zulu)
            default: output += offsetText(offset, colon: true, zulu: zulu)
            }
        case "z":
            if zone.secondsFromGMT(for: date) == 0, zone.identifier.contains("UTC") || zone.identifier.contains("GMT") {
                // Foundation on Linux names UTC "GMT"; Java names the zone WireMock defaults to "UTC".
                output += "UTC"
            } else if count >= 4 {
                output += zone.localizedName(for: .standard, locale: Locale(identifier: "en_US_POSIX")) ?? zone.identifier
            } else {
                output += zone.abbreviation(for: date) ?? zone.identifier
            }
        default: output += zone.identifier
        }
    }
}

/// A date pattern that cannot be used: the pattern, the 1-based position and why.
struct DatePatternProblem: Error, Sendable, CustomStringConvertible {
    let pattern: String
    let position: Int
    let reason: String

    var description: String { "the date pattern \"\(pattern)\" has, at position \(position), \(reason)" }
}
