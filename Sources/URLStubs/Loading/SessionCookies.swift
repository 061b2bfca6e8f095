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
struct SessionCookies {
    /// The store used, `nil` when cookies are not handled at all.
    let storage: HTTPCookieStorage?
    private let sendsCookies: Bool
    private let acceptsCookies: Bool

    /// - Parameters:
    ///   - configuration: The session's configuration; `nil` stands for `URLSession.shared`
    ///     (the shared registry, registered with `URLProtocol.registerClass`).
    ///   - allowsSharedStorage: Whether `HTTPCookieStorage.shared` may be read and written.
    init(configuration: URLSessionConfiguration?, allowsSharedStorage: Bool) {
        let store: HTTPCookieStorage? = configuration == nil ? HTTPCookieStorage.shared : configuration?.httpCookieStorage
        if let store, store === HTTPCookieStorage.shared, !allowsSharedStorage {
            storage = nil
        } else {
            storage = store
        }
        sendsCookies = configuration?.httpShouldSetCookies ?? true
        acceptsCookies = configuration.map { $0.httpCookieAcceptPolicy != .never } ?? true
    }

    /// Adds the store's cookies for `request`'s URL as a `Cookie` header, unless the request
    /// already carries one (corelibs adds it when a task is created; a caller may set its own).
    func attach(to request: inout URLRequest) {
        guard sendsCookies, request.httpShouldHandleCookies, let storage, let url = request.url,
              request.value(forHTTPHeaderField: "Cookie") == nil,
              let cookies = storage.cookies(for: url), !cookies.isEmpty else { return }
        for (name, value) in HTTPCookie.requestHeaderFields(with: cookies) {
            request.setValue(value, forHTTPHeaderField: name)
        }
    }

    /// Stores a response's `Set-Cookie` lines, sent for `request`, from `url`.
    func store(_ lines: [String], from url: URL, for request: URLRequest) {
        guard !lines.isEmpty, acceptsCookies, request.httpShouldHandleCookies, let storage else { return }
        let cookies = lines.flatMap { HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": $0], for: url) }
        storage.setCookies(cookies, for: url, mainDocumentURL: request.mainDocumentURL ?? url)
    }
}
