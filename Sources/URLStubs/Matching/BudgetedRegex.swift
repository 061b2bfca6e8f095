import Foundation

/// A regular expression whose every match has a time budget.
///
/// ICU backtracks: a pattern such as `(a+)+c` takes time exponential in the text's length (200
/// characters: minutes). A match here asks `NSRegularExpression` to report its progress and stops
/// it once ``budget`` seconds have passed, so a hostile pattern or text costs at most that much
/// per match and is reported by name instead of hanging the test. Matchers (`pathMatches`,
/// `urlMatches`, `bodyMatches`) and the OpenAPI schemas' `pattern` use it.
package final class BudgetedRegex: @unchecked Sendable {
    // @unchecked: NSRegularExpression is immutable and documented as safe to share.

    /// The time one match may take, in seconds. A pattern that needs longer backtracks
    /// catastrophically: the text of a request or a JSON value never needs that much.
    public static let defaultBudget: Double = 0.5

    /// How one match ended.
    public enum Outcome: Sendable, Equatable {
        case matched
        case notMatched
        /// The budget ran out before the expression could decide.
        case ranOut
    }

    /// The pattern as written.
    public let pattern: String
    /// Seconds one match may take.
    public let budget: Double
    private let expression: NSRegularExpression

    /// Compiles `pattern` (ICU syntax); throws what `NSRegularExpression` throws.
    public init(_ pattern: String, budget: Double = BudgetedRegex.defaultBudget) throws {
        self.pattern = pattern
        self.budget = budget
        expression = try NSRegularExpression(pattern: pattern)
    }

    /// Whether the expression matches anywhere in `text`, or ran out of its budget first.
    public func firstMatch(in text: String) -> Outcome {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(budget * 1e9)
        var outcome = Outcome.notMatched
        let range = NSRange(text.startIndex..., in: text)
        expression.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, _, stop in
            if result != nil {
                outcome = .matched
                stop.pointee = true
            } else if DispatchTime.now().uptimeNanoseconds > deadline {
                outcome = .ranOut
                stop.pointee = true
            }
        }
        return outcome
    }

    /// What a report says of a match that ran out: the pattern, the budget, what to do.
    public func ranOutExplanation(subject: String, length: Int) -> String {
        "the regular expression /\(ReportText.bounded(pattern, limit: 200))/ ran out of its \(budget) s time budget on the "
            + "\(subject) (\(length) characters) before it could decide: it backtracks too much; rewrite it without nested "
            + "quantifiers such as (a+)+"
    }
}
