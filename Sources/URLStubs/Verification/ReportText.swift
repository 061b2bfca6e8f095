import Foundation

/// How much of a request a report quotes: every report (a near-miss report, `verify()`, an
/// error, a journal entry's description, a wait's timeout) cuts each line to its first
/// ``lineLimit`` bytes, then says how much it left out, so a report stays readable and small
/// whatever the request carried (a 2 MB upload, a 1 MB path). The journal keeps the request
/// itself (within ``StubRegistry/journalBodyLimit``).
///
/// Lines are cut after secrets are scrubbed, never before: a cut must not leave the start of a
/// secret that the scrubber would no longer recognise.
package enum ReportText {
    /// The most bytes of one line a report prints.
    package static let lineLimit = 1_024

    /// `text` without the "URLStubs: " an error's description starts with, for a report line or
    /// a problem's summary, which test frameworks print after a prefix of their own.
    static func withoutLibraryPrefix(_ text: String) -> String {
        let prefix = "URLStubs: "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }

    /// A count of times as reports say it: "once", "twice", "3 times".
    static func times(_ count: Int) -> String {
        count == 1 ? "once" : count == 2 ? "twice" : "\(count) times"
    }

    /// `text` cut to its first ``lineLimit`` UTF-8 bytes (on a character boundary), followed by
    /// `… (N bytes more)`; `text` itself when it is short enough.
    package static func bounded(_ text: String, limit: Int = lineLimit) -> String {
        let size = text.utf8.count
        guard size > limit else { return text }
        var end = text.startIndex
        var kept = 0
        while end < text.endIndex {
            let next = text.index(after: end)
            let width = text.utf8.distance(from: end, to: next)
            if kept + width > limit { break }
            kept += width
            end = next
        }
        return "\(text[..<end])… (\(size - kept) bytes more)"
    }

    /// Each line of `text` cut as ``bounded(_:limit:)`` says.
    package static func boundingLines(_ text: String, limit: Int = lineLimit) -> String {
        guard text.utf8.count > limit else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { bounded(String($0), limit: limit) }
            .joined(separator: "\n")
    }
}

/// `text` cut as ``ReportText/bounded(_:limit:)`` cuts a report line (to ``ReportText/lineLimit``
/// bytes unless `limit` says otherwise), for add-ons whose reports follow the same rule.
package func boundedReportLine(_ text: String, limit: Int? = nil) -> String {
    ReportText.bounded(text, limit: limit ?? ReportText.lineLimit)
}
