import Foundation
@_spi(AddOns) import URLStubs

/// A schema's compiled `pattern`, shared between threads. Each match is given the time it may
/// take; answers are remembered for short strings (a response repeats its enum-like values),
/// up to a bound.
final class RegexBox: @unchecked Sendable {
    // @unchecked: NSRegularExpression is immutable and documented as safe to share; `answers`
    // is guarded by `lock`.
    static let rememberedAnswers = 4_096
    let source: String
    private let expression: NSRegularExpression
    private let lock = NSLock()
    private var answers: [String: BudgetedRegex.Outcome] = [:]

    /// Compiles `source` (ICU syntax); throws what `NSRegularExpression` throws.
    init(_ source: String) throws {
        self.source = source
        expression = try NSRegularExpression(pattern: source)
    }

    /// Whether the pattern matches anywhere in `text` (JSON Schema patterns are not anchored),
    /// or ``BudgetedRegex/Outcome/ranOut`` when `seconds` passed before it could decide; with
    /// the seconds it took (none for a remembered answer).
    func matches(_ text: String, within seconds: Double) -> (answer: BudgetedRegex.Outcome, seconds: Double) {
        let remembers = text.utf8.count <= 64
        if remembers {
            lock.lock()
            let known = answers[text]
            lock.unlock()
            if let known { return (known, 0) }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(max(seconds, 0) * 1e9)
        var answer = BudgetedRegex.Outcome.notMatched
        expression.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) { result, _, stop in
            if result != nil {
                answer = .matched
                stop.pointee = true
            } else if DispatchTime.now().uptimeNanoseconds > deadline {
                answer = .ranOut
                stop.pointee = true
            }
        }
        let spent = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // Running out depends on the time given, so only a decision is remembered.
        if remembers, answer != .ranOut {
            lock.lock()
            if answers.count < Self.rememberedAnswers { answers[text] = answer }
            lock.unlock()
        }
        return (answer, spent)
    }

    /// What a report says of a string whose match ran out of `seconds`.
    func ranOutExplanation(seconds: Double, length: Int) -> String {
        "the regular expression /\(boundedReportLine(source, limit: 200))/ ran out of its \(seconds) s time budget on the string "
            + "(\(length) characters) before it could decide: it backtracks too much; rewrite it without nested quantifiers such as (a+)+"
    }
}
