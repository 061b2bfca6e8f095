import Foundation
import URLStubs

extension StubRegistry {
    /// Adds one stub per distinct request of a HAR archive (method, URL with its query in any
    /// order, and the body for methods that carry one) and returns them.
    ///
    /// A GraphQL request is identified by its operation and variables rather than its raw
    /// body or query string, so entries for `GetUser` and `GetUsers` sent to one `/graphql`
    /// URL replay apart, and a differently formatted document still matches. A multipart body
    /// is compared part by part (its boundary changes on every run). Fields listed in
    /// `HARReplayOptions.volatileFields` are left out of every comparison.
    ///
    /// When several entries share a request, the one sharing the most request headers with
    /// the incoming request answers; identical entries answer in archive order (a poll that
    /// returned different bodies), the last one repeating. Redirects in the archive are
    /// followed, since each hop is a stub of its own.
    ///
    /// It reads the archive, then adds its entries as `stubs(fromHAREntries:named:options:)` does.
    ///
    /// ```swift
    /// let stubs = try registry.stubs(fromHAR: Bundle.module.url(forResource: "checkout", withExtension: "har")!)
    /// ```
    @discardableResult
    public func stubs(
        fromHAR url: URL, options: HARReplayOptions = HARReplayOptions(),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) throws -> [StubDescriptor] {
        stubs(
            fromHAREntries: try HAR.read(contentsOf: url), named: url.lastPathComponent, options: options,
            fileID: fileID, filePath: filePath, line: line)
    }
}
