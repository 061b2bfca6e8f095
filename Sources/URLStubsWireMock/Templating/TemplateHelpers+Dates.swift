import Foundation

extension TemplateRenderer {
    /// `now`, `date`, `parseDate` and `truncateDate`, as WireMock's date helpers: a date with
    /// its format (`format`: a Java pattern, `epoch` or `unix`) and zone (`timezone`), moved by
    /// `offset` (`3 days`, `-24 seconds`, `now +1 years`).
    mutating func dateHelper(_ call: HelperCall) -> TemplateValue {
        let format = call.hashValue("format").map { evaluate($0).text }
        let zone = call.hashValue("timezone").flatMap { TimeZone(identifier: evaluate($0).text) }
        var date: Date
        var keptFormat: String?
        var keptZone = zone
        switch call.helper {
        case .now:
            date = environment.now
        case .date:
            switch call.parameters.first.map({ evaluate($0) }) {
            case .date(let value, let valueFormat, let valueZone)?:
                date = value
                keptFormat = valueFormat
                keptZone = valueZone ?? zone
            case let other?:
                guard let parsed = DateTimeParsing.parse(other.text) else { return .string("[ERROR: \(other.text) is not a date]") }
                date = parsed.date()
            case nil:
                date = environment.now
            }
        case .parseDate:
            let text = evaluate(call.parameters[0]).text
            let pattern: JavaDateFormat?
            if case .dateFormat(let compiled) = call.compiled { pattern = compiled } else { pattern = format.flatMap { try? JavaDateFormat($0) } }
            guard let parsed = DateTimeParsing.parse(text, format: pattern, named: format) else {
                return .string("[ERROR: \(text) could not be parsed as a date]")
            }
            return .date(parsed.date(localZone: TemplateValue.utc), format: nil, zone: nil)
        default:
            guard case .date(let value, let valueFormat, let valueZone) = evaluate(call.parameters[0]),
                let truncation = DateTruncation(rawValue: evaluate(call.parameters[1]).text)
            else { return .string("[ERROR: truncateDate needs a date and a truncation]") }
            let truncated = truncation.applied(to: CivilTime(value, in: valueZone ?? TemplateValue.utc))
            return .date(truncated.date(), format: valueFormat, zone: valueZone)
        }
        if let offsetText = call.hashValue("offset").map({ evaluate($0).text }), let offset = DateOffset(offsetText) {
            let zoneForOffset = keptZone ?? TemplateValue.utc
            date = offset.applied(to: CivilTime(date, in: zoneForOffset)).date()
        }
        return .date(date, format: format ?? keptFormat, zone: keptZone)
    }
}
