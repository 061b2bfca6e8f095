import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Installing a registry into sessions: its own, or `URLSession.shared` for ``StubRegistry/shared``.
extension StubRegistry {
    /// Puts this registry's protocol class first in `configuration.protocolClasses`, so
    /// sessions made from it are answered by this registry (and no other).
    ///
    /// Code under test that builds its own session can be stubbed in one line:
    /// ```swift
    /// let configuration = URLSessionConfiguration.ephemeral
    /// registry.install(into: configuration)
    /// let client = APIClient(configuration: configuration)
    /// ```
    ///
    /// The registry remembers this configuration: on Apple platforms a protocol cannot see its
    /// session, so the cookie store and `timeoutIntervalForRequest` of the configuration last
    /// installed into are the ones stubs use there (on Linux, each session's own are used).
    /// Install a registry into one configuration, or into several that share those settings.
    ///
    /// - Important: A background configuration
    ///   (`URLSessionConfiguration.background(withIdentifier:)`, Apple platforms only) cannot be
    ///   stubbed: background sessions never consult custom protocols, so its requests reach the
    ///   network. It is left unchanged, the problem is printed to standard error, and
    ///   ``verify(includePassedThrough:)`` reports it (a ``VerificationProblem`` of kind
    ///   ``VerificationProblem/Kind/unstubbableConfiguration``, with
    ///   ``StubError/backgroundSessionUnsupported(identifier:)``'s message), so the `.stubbed`
    ///   trait and `makeStubRegistry()` fail the test with it.
    public func install(into configuration: URLSessionConfiguration) {
        install(into: configuration, backgroundIdentifier: configuration.identifier)
    }

    /// ``install(into:)`` for a configuration whose background identifier is given apart, so
    /// that tests on Linux, which has no background configurations, can pass one.
    func install(into configuration: URLSessionConfiguration, backgroundIdentifier: String?) {
        if let problem = Self.installationProblem(backgroundIdentifier: backgroundIdentifier) {
            addInstallationProblem(problem)
            FileHandle.standardError.write(Data("URLStubs: \(problem.description)\n".utf8))
            return
        }
        var classes = (configuration.protocolClasses ?? []).filter { !($0 is StubURLProtocol.Type) }
        classes.insert(protocolClass, at: 0)
        configuration.protocolClasses = classes
        lastInstalledConfiguration = configuration
    }

    /// Why a configuration cannot be stubbed, if it cannot: only a background configuration
    /// (one with an identifier; they exist on Apple platforms only) is refused.
    static func installationProblem(backgroundIdentifier: String?) -> StubError? {
        backgroundIdentifier.map { StubError.backgroundSessionUnsupported(identifier: $0) }
    }

    /// Removes this registry's protocol class from `configuration`.
    public func uninstall(from configuration: URLSessionConfiguration) {
        configuration.protocolClasses = configuration.protocolClasses?.filter { $0 != protocolClass }
    }

    /// A session answered by this registry: an ephemeral configuration (its own cookie
    /// store) without a URL cache, with the registry installed. Stubbed responses are never
    /// cached, and corelibs' cache lookup costs a queue round trip per request (about 40 µs).
    public func makeSession(
        configuration: URLSessionConfiguration? = nil,
        delegate: (any URLSessionDelegate)? = nil,
        delegateQueue: OperationQueue? = nil
    ) -> URLSession {
        let configuration =
            configuration
            ?? {
                let ephemeral = URLSessionConfiguration.ephemeral
                ephemeral.urlCache = nil
                return ephemeral
            }()
        install(into: configuration)
        #if URLSTUBS_APPLE_LOADING
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
        #else
        // A class of its own records the session's configuration, delegate and queue now, and how
        // each task is created: its requests read none of corelibs' private session fields.
        return MadeURLSession.make(
            for: self, owner: slotIndex, configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
        #endif
    }

    // MARK: Shared session

    private static let sharedProtocolRegistered = Locked(false)

    /// Registers ``StubURLProtocol`` with `URLProtocol.registerClass`, once, so
    /// `URLSession.shared` is answered by ``shared``. Adding a stub to ``shared`` calls this.
    ///
    /// On Linux `URLSession.shared` copies the registered classes the first time it is used:
    /// call this (or add a shared stub) before anything touches `URLSession.shared`, for
    /// example at the start of the test run or app launch. `invalidateAndCancel()` on any
    /// session touches it there too (`finishTasksAndInvalidate()` does not). On Apple
    /// platforms it applies at any time.
    public static func activateForSharedSession() {
        registerSharedProtocolOnce()
    }

    static func registerSharedProtocolOnce() {
        // Held through registerClass so no caller touches URLSession.shared in between.
        sharedProtocolRegistered.withLock { registered in
            guard !registered else { return }
            registered = true
            _ = URLProtocol.registerClass(StubURLProtocol.self)
            #if !URLSTUBS_APPLE_LOADING
            // corelibs consults registered classes oldest first, and registers its own HTTP protocol
            // as soon as any session exists: move those behind ours so ours is asked first.
            for builtIn in URLSessionConfiguration.default.protocolClasses ?? [] where builtIn != StubURLProtocol.self {
                URLProtocol.unregisterClass(builtIn)
                _ = URLProtocol.registerClass(builtIn)
            }
            #endif
        }
    }
}
