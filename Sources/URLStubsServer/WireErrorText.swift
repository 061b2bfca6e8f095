import Foundation
import URLStubs

/// What the server tells any client about a stub's mistake: enough to recognise it, nothing
/// about the developer's disk. A file's folder and the files near it (which ``URLStubs/FixtureError``
/// names for the test, in the journal and in `verify()`) are left out: a page or process that
/// reaches the server learns no path.
enum WireErrorText {
    /// The sentence for a file a stub could not use.
    static func fixtureProblem(_ error: FixtureError) -> String {
        let name = (error.source as NSString).lastPathComponent.debugDescription
        let elsewhere = "The test's journal and verify() say where it was looked for; the server shows its clients no path."
        switch error.kind {
        case .notFound:
            return "URLStubs: no file named \(name) in the stub's folder. \(elsewhere)"
        case .ambiguous:
            return "URLStubs: \(name) is in several folders of the stub's bundle. \(elsewhere)"
        case .unreadable, .malformed, .unwritable, .invalidFolder:
            let place = error.line > 0 ? ":\(error.line)" : (error.jsonPath.isEmpty ? "" : " at \(error.jsonPath)")
            return "URLStubs: the stub's file \(name)\(place) cannot be used (\(error.kind)): expected \(error.expected). \(elsewhere)"
        }
    }
}
