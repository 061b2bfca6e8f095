import Foundation

/// How many times a stub is expected to answer.
///
/// ```swift
/// registry.stub(isPath("/login")) { _ in … }.expect(.once)
/// registry.stub(isPath("/poll")) { _ in … }.expect(.atLeast(2))
/// registry.stub(isPath("/delete-account")) { _ in … }.expect(.never)
/// ```
public enum ExpectedCount: Sendable, Equatable, CustomStringConvertible {
    /// Exactly `n` times.
    case exactly(Int)
    /// `n` times or more.
    case atLeast(Int)
    /// At most `n` times (zero included).
    case atMost(Int)
    /// A number of times within the range.
    case between(ClosedRange<Int>)

    /// Exactly once.
    public static let once = ExpectedCount.exactly(1)
    /// Not at all.
    public static let never = ExpectedCount.exactly(0)
    /// One or more times.
    public static let atLeastOnce = ExpectedCount.atLeast(1)

    /// `true` when `count` activations satisfy the expectation: what
    /// ``StubRegistry/verify(includePassedThrough:)`` checks for each stub.
    package func accepts(_ count: Int) -> Bool {
        switch self {
        case .exactly(let n): return count == n
        case .atLeast(let n): return count >= n
        case .atMost(let n): return count <= n
        case .between(let range): return range.contains(count)
        }
    }

    /// "exactly 2 times", "at least once", "never", as reports print it.
    public var description: String {
        let times = ReportText.times
        switch self {
        case .exactly(0): return "never"
        case .exactly(let n): return "exactly \(times(n))"
        case .atLeast(let n): return "at least \(times(n))"
        case .atMost(let n): return "at most \(times(n))"
        case .between(let range): return "between \(range.lowerBound) and \(range.upperBound) times"
        }
    }
}
