import Foundation

extension JavaDateFormat {
    /// Reads `text` written in this pattern: the wall-clock fields, with the offset when the
    /// pattern has a zone field (`nil` offset otherwise). A space in the pattern accepts one or
    /// more spaces (asctime pads the day with one); letters compare without case. Fields the
    /// pattern lacks take their smallest value (January, the 1st, midnight); a weekday is
    /// read and not checked.
    func parse(_ text: String) -> CivilTime? {
        var scanner = Substring(text)
        var year = 1970
        var month = 1
        var day = 1
        var hour = 0
        var minute = 0
        var second = 0
        var nanosecond = 0
        var pm: Bool?
        var offset: Int?
        for (index, part) in parts.enumerated() {
            switch part {
            case .literal(let literal):
                for character in literal {
                    if character == " " {
                        guard scanner.first == " " else { return nil }
                        while scanner.first == " " { scanner.removeFirst() }
                    } else {
                        guard let first = scanner.first, first.lowercased() == character.lowercased() else { return nil }
                        scanner.removeFirst()
                    }
                }
            case .field(let letter, let count):
                let nextIsDigitField: Bool = {
                    if index + 1 < parts.count, case .field(let next, _) = parts[index + 1] { return "yuMLdDHhkKmsS".contains(next) }
                    return false
                }()
                func number(max width: Int) -> Int? {
                    let limit = nextIsDigitField ? count : width
                    var digits = ""
                    if scanner.first == "-" || scanner.first == "+", "yu".contains(letter) { digits.append(scanner.removeFirst()) }
                    while let first = scanner.first, first.isASCII, first.isNumber, digits.count < limit {
                        digits.append(scanner.removeFirst())
                    }
                    return Int(digits)
                }
                switch letter {
                case "y", "u":
                    guard let value = number(max: count == 2 ? 2 : 9) else { return nil }
                    year = count == 2 ? 2000 + value : value
                case "M", "L":
                    if count >= 3 {
                        guard let found = Self.name(in: &scanner, from: count == 3 ? Self.shortMonths : Self.months) else { return nil }
                        month = found + 1
                    } else {
                        guard let value = number(max: 2), (1...12).contains(value) else { return nil }
                        month = value
                    }
                case "d":
                    guard let value = number(max: 2) else { return nil }
                    day = value
                case "D":
                    guard let value = number(max: 3) else { return nil }
                    day = value
                    month = 0
                case "E":
                    guard Self.name(in: &scanner, from: count >= 4 ? Self.weekdays : Self.shortWeekdays) != nil else { return nil }
                case "a":
                    guard let found = Self.name(in: &scanner, from: ["AM", "PM"]) else { return nil }
                    pm = found == 1
                case "H", "k", "h", "K":
                    guard let value = number(max: 2) else { return nil }
                    hour = letter == "k" && value == 24 ? 0 : value
                case "m":
                    guard let value = number(max: 2) else { return nil }
                    minute = value
                case "s":
                    guard let value = number(max: 2) else { return nil }
                    second = value
                case "S":
                    var digits = ""
                    while let first = scanner.first, first.isASCII, first.isNumber, digits.count < max(count, 9) {
                        digits.append(scanner.removeFirst())
                    }
                    guard !digits.isEmpty else { return nil }
                    nanosecond = Int((digits + String(repeating: "0", count: max(0, 9 - digits.count))).prefix(9)) ?? 0
                case "Z", "X", "x", "z", "V":
                    guard let value = Self.offset(in: &scanner) else { return nil }
                    offset = value
                default:
                    return nil
                }
            }
        }
        guard scanner.isEmpty else { return nil }
        if let pm {
            if pm, hour < 12 { hour += 12 }
            if !pm, hour == 12 { hour = 0 }
        }
        if month == 0 {
            let days = CivilTime.days(fromCivil: year, 1, 1) + day - 1
            (year, month, day) = CivilTime.civil(fromDays: days)
        }
        guard (1...12).contains(month), (1...CivilTime.daysInMonth(year, month)).contains(day), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        return CivilTime(
            year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59), nanosecond: nanosecond, offset: offset)
    }

    /// The index in `names` of the name `scanner` starts with (case-insensitive), consumed.
    private static func name(in scanner: inout Substring, from names: [String]) -> Int? {
        for (index, name) in names.enumerated() where scanner.lowercased().hasPrefix(name.lowercased()) {
            scanner.removeFirst(name.count)
            return index
        }
        return nil
    }

    /// An offset: `Z`, `GMT`, `UTC`, `UT`, `+01`, `+0100`, `+01:00`, `GMT+01:00`, or a zone
    /// identifier (`Europe/Paris`, at the current moment's offset).
    static func offset(in scanner: inout Substring) -> Int? {
        for name in ["GMT", "UTC", "UT", "Z"] where scanner.hasPrefix(name) {
            scanner.removeFirst(name.count)
            if scanner.first != "+" && scanner.first != "-" { return 0 }
        }
        if let sign = scanner.first, sign == "+" || sign == "-" {
            scanner.removeFirst()
            var digits = ""
            while let first = scanner.first, first.isASCII, first.isNumber || first == ":", digits.count < 5 {
                if first != ":" { digits.append(first) }
                scanner.removeFirst()
            }
            guard digits.count == 2 || digits.count == 4, let value = Int(digits) else { return nil }
            let seconds = digits.count == 2 ? value * 3600 : value / 100 * 3600 + value % 100 * 60
            return sign == "-" ? -seconds : seconds
        }
        let identifier = scanner.prefix { $0.isLetter || $0 == "/" || $0 == "_" }
        guard !identifier.isEmpty, let zone = TimeZone(identifier: String(identifier)) ?? TimeZone(abbreviation: String(identifier)) else {
            return nil
        }
        scanner.removeFirst(identifier.count)
        return zone.secondsFromGMT()
    }
}
