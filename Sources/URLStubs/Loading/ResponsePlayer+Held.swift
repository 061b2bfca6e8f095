import Foundation
import Dispatch

/// Held responses (``ResponseGate``): a hop whose stub or response is held waits at its gate,
/// as a stored continuation and never a blocked thread, until the test releases it.
extension ResponsePlayer {
    /// Holds the current item at its gate, unless it has none or already passed it; returns
    /// whether it did (the gate's release then plays it).
    func holdIfGated() -> Bool {
        guard let item, !item.passedGate, let gate = item.response.gate ?? item.descriptor.gate else { return false }
        let scheduler = environment.scheduler
        let held = HeldRequest(request: item.request) { [self] release in
            scheduler.async { [self] in
                newStep()
                released(release)
            }
        }
        heldAt = (gate, held)
        gate.hold(held)
        return true
    }

    /// The player ended while held (timeout, cancel): the gate lets the request go.
    func leaveGate() {
        guard let (gate, held) = heldAt else { return }
        heldAt = nil
        gate.abandon(held)
    }

    private func released(_ release: GateRelease) {
        heldAt = nil
        guard !ended, var item else { return }
        item.passedGate = true
        // The response goes out now: its request time, and the timeout, count from here.
        startTime = .now()
        lastProgress = startTime
        switch release {
        case .asStubbed:
            self.item = item
        case .response(let replacement):
            item.response = replacement
            self.item = item
            host?.responseReplaced(in: item)
        case .failure(let failure):
            item.response = StubResponse(error: failure.error)
            self.item = item
            host?.responseReplaced(in: item)
            fail(failure.error)
            return
        }
        play()
    }
}
