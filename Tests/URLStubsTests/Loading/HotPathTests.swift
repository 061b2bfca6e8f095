import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import URLStubs

/// What the per-request path shares between requests to stay cheap, pinned so that sharing
/// never changes what a request sees.
@Suite("Hot path")
struct HotPathTests {
    /// Requests started within one quarter second have their first timeout check at one
    /// moment, so the monitor's timer fires once for all of them; the check still comes
    /// within a second, and never before three quarters of one.
    @Test func firstTimeoutChecksShareAQuarterSecondGrid() {
        let start = DispatchTime.now().uptimeNanoseconds
        var moments = Set<UInt64>()
        for offset in stride(from: UInt64(0), to: 250_000_000, by: 1_000_000) {
            let now = DispatchTime(uptimeNanoseconds: start + offset)
            let check = ExchangePlayer.firstCheck(after: now).uptimeNanoseconds
            #expect(check % ExchangePlayer.firstCheckGrid == 0)
            #expect(check > now.uptimeNanoseconds + 750_000_000)
            #expect(check <= now.uptimeNanoseconds + 1_000_000_000)
            moments.insert(check)
        }
        #expect(moments.count <= 2)
    }
}
