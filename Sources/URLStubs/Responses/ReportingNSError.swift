import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `NSError` inside a `URLError` that URLStubs makes (a request no stub matched, a
/// timeout): prints its report once, readably.
///
/// App code handles `URLError`, so an unmatched request must stay one. But the description
/// Foundation builds for an `NSError` dumps its whole `userInfo`: on Linux
/// (`Error Domain=NSURLErrorDomain Code=-1008 "(null)"UserInfo={NSLocalizedDescription=<report>,
/// NSUnderlyingError=<report>, …}`) and on Apple platforms (the localized description in
/// quotes, then again under `NSLocalizedDescription`, then the underlying error's) the report
/// comes out two or three times, run together. A `URLError` is a thin wrapper around its
/// `NSError` (`_nsError`): its `description` on Linux is that object's `description`, and on
/// Apple platforms the loading system hands the app the object itself, which `print` and
/// string interpolation describe with `description`. So overriding `description` here is
/// what `print(error)`, `String(describing:)`, `#expect(throws:)`, Swift Testing's "Caught
/// error" and XCTest's thrown-error text all show.
///
/// One path is out of reach: on Linux `error as NSError` builds a new `NSError` from the user
/// info instead of returning this object, and that one prints Foundation's dump (the report is
/// still its `localizedDescription`). On Apple platforms `as NSError` returns this object.
package final class ReportingNSError: NSError, @unchecked Sendable {
    /// The text `description` shows after the code's name, and the code's name. Written and
    /// read under a lock: the error is made on a registry thread and read wherever the app
    /// handles it, handed over by corelibs' callbacks, whose hand-off the thread sanitizer
    /// does not see; the lock makes the hand-off plain.
    private let text: Locked<(report: String, codeName: String)>

    /// A `URLError` of `code` (spelled `codeName` in its description) whose localized
    /// description is `report`, carrying `underlying` under `NSUnderlyingErrorKey`.
    package static func urlError(
        _ code: URLError.Code, named codeName: String, report: String,
        underlying: (any Error)?, url: URL?
    ) -> URLError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: report]
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        if let url { info[NSURLErrorFailingURLErrorKey] = url }
        let object = ReportingNSError(domain: NSURLErrorDomain, code: code.rawValue, userInfo: info, codeName: codeName, report: report)
        return URLError(_nsError: object)
    }

    private init(domain: String, code: Int, userInfo: [String: Any], codeName: String, report: String) {
        text = Locked((report: "", codeName: ""))
        text.withLock { $0 = (report, codeName) }
        super.init(domain: domain, code: code, userInfo: userInfo)
    }

    required init?(coder: NSCoder) {
        // Archived copies (background sessions only) decode as a plain NSError's fields.
        text = Locked((report: "", codeName: ""))
        super.init(coder: coder)
    }

    /// `URLError(.resourceUnavailable): ` (or the code it is) then the report, each line once.
    package override var description: String {
        let (report, codeName) = text.withLock { $0 }
        return report.isEmpty ? super.description : "URLError(\(codeName)): \(report)"
    }

    package override var debugDescription: String { description }
}

extension URLError {
    /// The error of a request that made no progress for `seconds`: the `URLError(.timedOut)` a
    /// real session gives, printed as `URLError(.timedOut): URLStubs: nothing for 2.0 s before
    /// the response`, like the other errors URLStubs makes.
    static func stubTimedOut(url: URL, seconds: TimeInterval, gap: String) -> URLError {
        ReportingNSError.urlError(
            .timedOut, named: ".timedOut", report: "URLStubs: nothing for \(seconds) s \(gap)", underlying: nil, url: url)
    }
}
