import Foundation
import URLStubs

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
}

/// The time one check of a value may spend on its schemas' patterns, all together:
/// ``BudgetedRegex/defaultBudget``. A catastrophic pattern then costs a check about that
/// budget, however many strings it meets.
struct PatternBudget {
    /// How one string fared against one pattern.
    enum Outcome {
        case matched
        case notMatched
        /// This match spent the rest of the budget before it could decide.
        case ranOut
        /// The budget was already spent: the match was not tried.
        case notTried
    }

    static let seconds = BudgetedRegex.defaultBudget
    private(set) var remaining = PatternBudget.seconds
    /// The pattern that ran out of the budget, and where in the value (`$` until it is told).
    private(set) var spentOn: (pattern: String, jsonPath: String)?

    /// Matches `text` against `pattern` with what is left of the budget.
    mutating func match(_ pattern: RegexBox, _ text: String) -> Outcome {
        guard spentOn == nil else { return .notTried }
        let (answer, seconds) = pattern.matches(text, within: remaining)
        remaining -= seconds
        switch answer {
        case .matched: return .matched
        case .notMatched: return .notMatched
        case .ranOut:
            spentOn = (pattern.source, "$")
            return .ranOut
        }
    }

    /// Where in the value the match that ran out was, for later reports.
    mutating func ranOut(at jsonPath: String) {
        spentOn?.jsonPath = jsonPath
    }

    /// What a report says of a string whose match ran out.
    static func ranOutExplanation(_ pattern: RegexBox, length: Int) -> String {
        "the regular expression /\(boundedReportLine(pattern.source, limit: 200))/ ran out of its \(seconds) s time budget on the "
            + "string (\(length) characters) before it could decide (one budget serves every pattern of a check): it backtracks "
            + "too much; rewrite it without nested quantifiers such as (a+)+"
    }

    /// What a report says of a string the budget was spent before.
    var notTriedExplanation: String {
        let culprit = spentOn.map {
            " (/\(boundedReportLine($0.pattern, limit: 200))/ on \(boundedReportLine($0.jsonPath, limit: 200)) ran out of it)"
        }
        return "the check's \(Self.seconds) s for regular expressions was spent" + (culprit ?? "")
    }
}
