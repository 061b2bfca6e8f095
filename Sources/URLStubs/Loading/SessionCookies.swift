import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cookie store of the session a stubbed request belongs to, read and written the way
/// URLSession treats an HTTP response.
///
/// Neither loading system does this for a custom protocol: Apple's stores no `Set-Cookie`
/// and sends no `Cookie`; corelibs sends the store's cookies when a task is created but stores
/// none and recomputes none for a redirect hop. So URLStubs does both, on every platform, here.
///
/// `HTTPCookieStorage.shared` is used only when the registry allows it
/// (``StubRegistry/storesCookiesInSharedStorage``): it is the test runner's real cookie jar
/// (a file in the home directory on Linux), and parallel tests would leak cookies into each
/// other through it.
package struct SessionCookies: @unchecked Sendable {
    // @unchecked: a configuration is only read here.
    private let configuration: URLSessionConfiguration?
    private let allowsSharedStorage: Bool

    /// - Parameters:
    ///   - configuration: The session's configuration; `nil` stands for `URLSession.shared`
    ///     (the shared registry, registered with `URLProtocol.registerClass`).
    ///   - allowsSharedStorage: Whether `HTTPCookieStorage.shared` may be read and written.
    init(configuration: URLSessionConfiguration?, allowsSharedStorage: Bool) {
        self.configuration = configuration
        self.allowsSharedStorage = allowsSharedStorage
    }

    /// The store used and the configuration's rules; `nil` when cookies are not handled.
    private func resolve() -> (storage: HTTPCookieStorage, configuration: URLSessionConfiguration?)? {
        let store: HTTPCookieStorage? = configuration == nil ? HTTPCookieStorage.shared : configuration?.httpCookieStorage
        guard let store, store !== HTTPCookieStorage.shared || allowsSharedStorage else { return nil }
        return (store, configuration)
    }

    /// Adds the store's cookies for `request`'s URL as a `Cookie` header, unless the request
    /// already carries one (corelibs adds it when a task is created; a caller may set its own).
    func attach(to request: inout URLRequest) {
        guard request.httpShouldHandleCookies, let url = request.url, request.value(forHTTPHeaderField: "Cookie") == nil,
            let (storage, configuration) = resolve(), configuration?.httpShouldSetCookies ?? true,
            let cookies = storage.cookies(for: url), !cookies.isEmpty
        else { return }
        for (name, value) in HTTPCookie.requestHeaderFields(with: cookies) {
            request.setValue(value, forHTTPHeaderField: name)
        }
    }

    /// Stores a response's `Set-Cookie` lines, sent for `request`, from `url`.
    func store(_ lines: [String], from url: URL, for request: URLRequest) {
        guard !lines.isEmpty, request.httpShouldHandleCookies, let (storage, configuration) = resolve(),
            configuration.map({ $0.httpCookieAcceptPolicy != .never }) ?? true
        else { return }
        let cookies = lines.flatMap { HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": $0], for: url) }
        storage.setCookies(cookies, for: url, mainDocumentURL: request.mainDocumentURL ?? url)
    }
}
