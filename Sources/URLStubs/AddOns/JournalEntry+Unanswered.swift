import Foundation

extension JournalEntry {
    /// The entry of a request no stub has answered yet (held, or connected to a live stream),
    /// described as `scrubbing` hides its secrets: for an add-on that reports such a request
    /// before the registry records its end (the UI-test link).
    package init(unanswered request: StubRequest, scrubbing: Scrubbing) {
        self.init(request: request, stub: nil, date: Date())
        self.scrubbing = scrubbing
    }
}
