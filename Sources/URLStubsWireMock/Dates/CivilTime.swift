import Foundation

/// A wall-clock date and time (proleptic Gregorian calendar), with the UTC offset it was read
/// or is shown in when it has one. Dates are turned into fields and back with integer
/// arithmetic alone: no `Calendar`, no formatter object, no allocation.
struct CivilTime: Sendable, Hashable {
    var year: Int
    var month: Int
    var day: Int
    var hour = 0
    var minute = 0
    var second = 0
    var nanosecond = 0
    /// Seconds east of UTC, or `nil` for a local date/time (no zone written).
    var offset: Int?

    init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanosecond: Int = 0, offset: Int? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
        self.offset = offset
    }

    /// The wall-clock time of `date` at `offset` seconds east of UTC.
    init(_ date: Date, offset: Int) {
        let total = date.timeIntervalSince1970 + Double(offset)
        let seconds = Int(total.rounded(.down))
        nanosecond = Int(((total - Double(seconds)) * 1e9).rounded())
        if nanosecond >= 1_000_000_000 { nanosecond = 999_999_999 }
        let days = Self.floorDiv(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        (year, month, day) = Self.civil(fromDays: days)
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
        second = secondOfDay % 60
        self.offset = offset
    }

    /// The wall-clock time of `date` in `zone`.
    init(_ date: Date, in zone: TimeZone) {
        self.init(date, offset: zone.secondsFromGMT(for: date))
    }

    /// Seconds since 1970 of the wall-clock fields read as UTC.
    var wallSeconds: Double {
        let days = Self.days(fromCivil: year, month, day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second) + Double(nanosecond) / 1e9
    }

    /// The instant: the fields at their offset, or at `zone`'s offset for a local time.
    func date(localZone zone: TimeZone = .current) -> Date {
        let wall = wallSeconds
        if let offset { return Date(timeIntervalSince1970: wall - Double(offset)) }
        // The zone's offset at the wall time, corrected once for a change of offset in between.
        let guess = Date(timeIntervalSince1970: wall - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall))))
        return Date(timeIntervalSince1970: wall - Double(zone.secondsFromGMT(for: guess)))
    }

    /// 1 (Monday) to 7 (Sunday).
    var weekday: Int {
        let days = Self.days(fromCivil: year, month, day)
        return (Self.floorDiv(days + 3, 7) * -7 + days + 3) + 1
    }

    var dayOfYear: Int { Self.days(fromCivil: year, month, day) - Self.days(fromCivil: year, 1, 1) + 1 }

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Adds `months`, keeping the day unless the month is shorter (31 January + 1 month is
    /// 28 or 29 February), as `java.time` does.
    mutating func addMonths(_ months: Int) {
        let index = year * 12 + (month - 1) + months
        year = Self.floorDiv(index, 12)
        month = index - year * 12 + 1
        day = min(day, Self.daysInMonth(year, month))
    }

    /// Adds seconds to the wall-clock fields (days, hours: exact lengths).
    mutating func addSeconds(_ seconds: Int) {
        let total = Int(wallSeconds.rounded(.down)) + seconds
        let days = Self.floorDiv(total, 86_400)
        let secondOfDay = total - days * 86_400
        (year, month, day) = Self.civil(fromDays: days)
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
        second = secondOfDay % 60
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let monthIndex = (month + 9) % 12
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
