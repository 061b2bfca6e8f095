import Foundation

/// A registry's streams by name: what a declaration's ``ResponseDefinition/Body/stream(_:)``
/// body plays. A library attaches each (URLStubsStreaming's live streams, the UI-test link's
/// streams written from another process); the engine only looks them up when a head is due.
final class NamedStreams: @unchecked Sendable {
    /// Streams no registry owns and no one attaches to: a response made outside a registry
    /// plays its `stream` body from here, so its request fails saying what to attach.
    static let unattached = NamedStreams()

    private let sources = Locked<[String: (play: StubBody.StreamedSource, owner: AnyObject?)]>([:])

    func attach(_ source: @escaping StubBody.StreamedSource, owner: AnyObject?, named name: String) {
        sources.withLock { $0[name] = (source, owner) }
    }

    func detach(named name: String) {
        sources.withLock { $0[name] = nil }
    }

    func source(named name: String) -> StubBody.StreamedSource? {
        sources.withLock { $0[name]?.play }
    }

    /// The owner of the stream `name`, attaching the one `make` gives first if none of that
    /// type is.
    func owner<Owner: AnyObject>(named name: String, make: () -> (StubBody.StreamedSource, Owner)) -> Owner {
        sources.withLock { sources in
            if let owner = sources[name]?.owner as? Owner { return owner }
            let (play, owner) = make()
            sources[name] = (play, owner)
            return owner
        }
    }

    /// The body of a response whose stream is named `name`: the attached source when the head
    /// is due, or a failure that says what to attach.
    func body(named name: String) -> StubBody.StreamedSource {
        { [weak self] request, stub, wake in
            guard let source = self?.source(named: name) else {
                throw StubError.bodyStreamFailed(
                    stub: stub, bytesDelivered: 0,
                    reason: "no stream named \(name.debugDescription) is attached to the registry; "
                        + "call `registry.liveStream(named: \(name.debugDescription))` (URLStubsStreaming) before the request, "
                        + "or `makeLiveStream(name:)` on the UI-test backend")
            }
            return try source(request, stub, wake)
        }
    }
}

extension StubRegistry {
    /// Attaches the source that plays the stream `name` (a declaration's
    /// ``ResponseDefinition/Body/stream(_:)`` body), replacing any attached before; `owner`
    /// is what ``attachedStreamOwner(named:make:)`` gives back for it.
    package func attachStream(named name: String, owner: AnyObject? = nil, source: @escaping StubBody.StreamedSource) {
        namedStreams.attach(source, owner: owner, named: name)
    }

    /// The owner of the stream `name` (a library's stream object), attaching the source and
    /// owner `make` gives, atomically, when no owner of that type is attached (replacing
    /// another library's stream of that name).
    package func attachedStreamOwner<Owner: AnyObject>(named name: String, make: () -> (StubBody.StreamedSource, Owner)) -> Owner {
        namedStreams.owner(named: name, make: make)
    }

    /// Detaches the stream `name`: a request for it fails, naming what to attach.
    package func detachStream(named name: String) {
        namedStreams.detach(named: name)
    }

    /// The source attached for the stream `name`, if any.
    package func attachedStream(named name: String) -> StubBody.StreamedSource? {
        namedStreams.source(named: name)
    }
}
