import Foundation
import URLStubs

/// The compiled regular expressions of `matches`, `doesNotMatch` and the URL patterns, each
/// compiled once and shared: a `BudgetedRegex` from the engine, so that one match costs at most
/// its time budget however much the expression backtracks.
///
/// WireMock compiles with `DOTALL` and asks the whole value to match (`Matcher.matches()`): the
/// expression is wrapped as `\A(?s:…)\z` for that.
enum RegexCache {
    private static let wholeValue = CompiledCache<BudgetedRegex> { try? BudgetedRegex("\\A(?s:" + $0 + ")\\z") }

    /// Whether `pattern` matches the whole of `value`, or ran out of its time budget (which
    /// neither `matches` nor `doesNotMatch` counts as a match).
    static func evaluate(_ pattern: String, wholeOf value: String) -> BudgetedRegex.Outcome {
        guard let regex = compiled(pattern) else { return .notMatched }
        return regex.firstMatch(in: value)
    }

    static func compiled(_ pattern: String) -> BudgetedRegex? { wholeValue.value(for: pattern) }

    /// Throws a mapping problem at `path` when `pattern` does not compile.
    static func validate(_ pattern: String, at path: [any CodingKey]) throws {
        do {
            _ = try NSRegularExpression(pattern: pattern)
        } catch {
            throw MappingProblem.refused(
                at: path, "a regular expression, found /\(pattern)/, which does not compile; WireMock refuses it too (PatternSyntaxException)")
        }
    }
}
