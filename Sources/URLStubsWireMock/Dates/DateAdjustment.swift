import Foundation

/// An amount of a calendar unit WireMock adds to a date: `3 days`, `-24 seconds`,
/// `now +1 months` (units are plural, in any case: seconds, minutes, hours, days, months,
/// years).
struct DateOffset: Sendable, Hashable {
    enum Unit: String, Sendable, Hashable, CaseIterable {
        case seconds, minutes, hours, days, months, years
    }

    var amount: Int
    var unit: Unit

    static let none = DateOffset(amount: 0, unit: .seconds)

    init(amount: Int, unit: Unit) {
        self.amount = amount
        self.unit = unit
    }

    /// `now`, `<amount> <unit>` or `now <±amount> <unit>`; `nil` for other text.
    init?(_ text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        if words.count == 1, words[0].lowercased() == "now" {
            self = .none
            return
        }
        let amountWord: Substring
        let unitWord: Substring
        switch words.count {
        case 2:
            (amountWord, unitWord) = (words[0], words[1])
        case 3 where words[0].lowercased() == "now":
            (amountWord, unitWord) = (words[1], words[2])
        default:
            return nil
        }
        guard let amount = Int(amountWord.hasPrefix("+") ? amountWord.dropFirst() : amountWord),
            let unit = Unit(rawValue: unitWord.lowercased())
        else { return nil }
        self.init(amount: amount, unit: unit)
    }

    /// `time` moved by the offset, on its wall clock.
    func applied(to time: CivilTime) -> CivilTime {
        var time = time
        switch unit {
        case .seconds: time.addSeconds(amount)
        case .minutes: time.addSeconds(amount * 60)
        case .hours: time.addSeconds(amount * 3600)
        case .days: time.addSeconds(amount * 86_400)
        case .months: time.addMonths(amount)
        case .years: time.addMonths(amount * 12)
        }
        return time
    }

    func applied(to date: Date) -> Date {
        applied(to: CivilTime(date, offset: 0)).date()
    }
}

/// How WireMock truncates a date: to the first minute of its hour, the first day of its month…
enum DateTruncation: String, Sendable, Hashable, CaseIterable {
    case firstMinuteOfHour = "first minute of hour"
    case firstHourOfDay = "first hour of day"
    case firstDayOfMonth = "first day of month"
    case firstDayOfNextMonth = "first day of next month"
    case lastDayOfMonth = "last day of month"
    case firstDayOfYear = "first day of year"
    case firstDayOfNextYear = "first day of next year"
    case lastDayOfYear = "last day of year"

    /// `time` truncated on its wall clock (the time of day becomes midnight for the day truncations).
    func applied(to time: CivilTime) -> CivilTime {
        var time = time
        time.nanosecond = 0
        time.second = 0
        time.minute = 0
        if self == .firstMinuteOfHour { return time }
        time.hour = 0
        switch self {
        case .firstMinuteOfHour, .firstHourOfDay: break
        case .firstDayOfMonth: time.day = 1
        case .firstDayOfNextMonth:
            time.day = 1
            time.addMonths(1)
        case .lastDayOfMonth: time.day = CivilTime.daysInMonth(time.year, time.month)
        case .firstDayOfYear:
            time.month = 1
            time.day = 1
        case .firstDayOfNextYear:
            time.year += 1
            time.month = 1
            time.day = 1
        case .lastDayOfYear:
            time.month = 12
            time.day = 31
        }
        return time
    }
}
