import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Gives every live registry a `URLProtocol` class of its own.
///
/// Only the request reaches `canInit` (on Linux, headers added by the configuration do not),
/// so the class is the one carrier that tells which registry a session belongs to, on every
/// platform. Distinct classes are distinct instantiations of a generic subclass, built from a
/// binary "tag" type for a slot number. Metadata for a generic instantiation is never freed,
/// so slots of released registries are reused (oldest freed first, after a quarantine), which
/// keeps the number of classes at the peak number of registries alive at once.
enum ProtocolClassPool {
    private struct Slot {
        let protocolClass: StubURLProtocol.Type
        weak var registry: StubRegistry?
        var isReleased: Bool
        /// The registry claims every request without looking at it (enabled, failing unmatched
        /// requests): `canInit` need not read its state.
        var claimsEverything = false
        /// A made session's slot (Linux): the session's record, and the registry's own slot,
        /// whose `claimsEverything` it goes by.
        var session: MadeSession?
        var owner: Int?
    }

    /// A slot is reused only once this many others were freed after it, so a session that
    /// outlives its registry is answered by "registry released" rather than by a newcomer.
    private static let quarantine = 64

    /// What the pool's lock guards.
    private struct Slots {
        var all: [Slot] = []
        var free: [Int] = []
        var freeHead = 0
    }

    private static let slots = Locked(Slots())

    /// A class for a new registry, which then calls ``bind(_:to:)``.
    static func acquire() -> (StubURLProtocol.Type, Int) {
        slots.withLock { slots in
            if slots.free.count - slots.freeHead > quarantine {
                let index = slots.free[slots.freeHead]
                slots.freeHead += 1
                if slots.freeHead > 1024 {
                    slots.free.removeFirst(slots.freeHead)
                    slots.freeHead = 0
                }
                slots.all[index].isReleased = false
                return (slots.all[index].protocolClass, index)
            }
            let index = slots.all.count
            let protocolClass = makeClass(for: index)
            slots.all.append(Slot(protocolClass: protocolClass, registry: nil, isReleased: false))
            return (protocolClass, index)
        }
    }

    static func bind(_ index: Int, to registry: StubRegistry, claimsEverything: Bool) {
        slots.withLock { slots in
            slots.all[index].registry = registry
            slots.all[index].claimsEverything = claimsEverything
        }
    }

    /// Binds slot `index` to a session `registry` made (``MadeURLSession``): its requests are
    /// `registry`'s, claimed as the registry's own slot `owner` says (`nil`: the shared
    /// registry's, which looks at each request).
    static func bind(_ index: Int, to registry: StubRegistry, owner: Int?, session: MadeSession) {
        slots.withLock { slots in
            slots.all[index].registry = registry
            slots.all[index].owner = owner
            slots.all[index].session = session
        }
    }

    /// The registry of slot `index` now claims every request, or no longer does. Called by the
    /// registry under its own lock (the pool's is taken inside it, never the other way round).
    static func setClaimsEverything(_ claims: Bool, at index: Int) {
        slots.withLock { $0.all[index].claimsEverything = claims }
    }

    static func release(_ index: Int) {
        slots.withLock { slots in
            slots.all[index].registry = nil
            slots.all[index].isReleased = true
            slots.all[index].claimsEverything = false
            slots.all[index].session = nil
            slots.all[index].owner = nil
            slots.free.append(index)
        }
    }

    enum Lookup {
        /// The registry, whether it claims every request without looking at it, and the made
        /// session the class answers for (Linux; `nil` for the registry's own class).
        case registry(StubRegistry, claimsEverything: Bool, session: MadeSession?)
        case released
        case unknown
    }

    /// The registry a protocol class answers for. The class carries its slot number in its
    /// type (no table to search: this runs twice per request, in `canInit` and `startLoading`).
    static func lookup(_ protocolClass: StubURLProtocol.Type) -> Lookup {
        guard let index = protocolClass.slotIndex else {
            return protocolClass == StubURLProtocol.self ? .registry(StubRegistry.shared, claimsEverything: false, session: nil) : .unknown
        }
        return slots.withLock { slots in
            guard index < slots.all.count, slots.all[index].protocolClass == protocolClass else { return .unknown }
            let slot = slots.all[index]
            guard let registry = slot.registry else { return .released }
            guard let session = slot.session else { return .registry(registry, claimsEverything: slot.claimsEverything, session: nil) }
            let claimsEverything = slot.owner.map { slots.all[$0].claimsEverything } ?? false
            return .registry(registry, claimsEverything: claimsEverything, session: session)
        }
    }

    /// Number of classes made so far (for tests that check registries leave nothing behind).
    static var classCount: Int {
        slots.withLock { $0.all.count }
    }

    private static func makeClass(for index: Int) -> StubURLProtocol.Type {
        var tag: any SlotTag.Type = SlotTagRoot.self
        var remaining = index
        repeat {
            tag = remaining & 1 == 0 ? appendZero(tag) : appendOne(tag)
            remaining >>= 1
        } while remaining > 0
        let made = protocolClass(tag)
        assert(made.slotIndex == index, "slot tag \(tag) decodes to \(String(describing: made.slotIndex)), not \(index)")
        return made
    }

    private static func appendZero<Tag: SlotTag>(_: Tag.Type) -> any SlotTag.Type { SlotTagZero<Tag>.self }
    private static func appendOne<Tag: SlotTag>(_: Tag.Type) -> any SlotTag.Type { SlotTagOne<Tag>.self }
    private static func protocolClass<Tag: SlotTag>(_: Tag.Type) -> StubURLProtocol.Type { RegistryURLProtocol<Tag>.self }
}

/// A slot number spelled as a type: binary digits, least significant innermost.
protocol SlotTag {
    static var slotIndex: Int { get }
    /// How many digits the tag holds.
    static var slotDigits: Int { get }
}

enum SlotTagRoot: SlotTag {
    static var slotIndex: Int { 0 }
    static var slotDigits: Int { 0 }
}

enum SlotTagZero<Rest: SlotTag>: SlotTag {
    static var slotIndex: Int { Rest.slotIndex }
    static var slotDigits: Int { Rest.slotDigits + 1 }
}

enum SlotTagOne<Rest: SlotTag>: SlotTag {
    static var slotIndex: Int { Rest.slotIndex | (1 << Rest.slotDigits) }
    static var slotDigits: Int { Rest.slotDigits + 1 }
}

/// The protocol class of one registry slot. All behaviour lives in ``StubURLProtocol``;
/// the generic parameter only makes the class distinct, and tells its slot.
final class RegistryURLProtocol<Tag: SlotTag>: StubURLProtocol {
    override class var slotIndex: Int? { Tag.slotIndex }
}
