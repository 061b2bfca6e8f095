/// A first-in, first-out queue on a ring buffer: appending and taking the first element cost
/// O(1) (amortised when the buffer grows), nothing is ever shifted, and a taken element is
/// released at once, so a queue of closures does not keep what they capture.
struct FIFOQueue<Element> {
    private var slots: [Element?] = []
    /// Index of the first element, when there is one.
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    var first: Element? { isEmpty ? nil : slots[head] }
    var last: Element? { isEmpty ? nil : slots[position(count - 1)] }

    mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        slots[position(count)] = element
        count += 1
    }

    mutating func popFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = slots[head]
        slots[head] = nil
        head = head + 1 == slots.count ? 0 : head + 1
        count -= 1
        if count == 0 { head = 0 }
        return element
    }

    /// Calls `body` with each element in order, to change it in place.
    mutating func updateEach(_ body: (inout Element) -> Void) {
        for offset in 0..<count {
            let index = position(offset)
            body(&slots[index]!)
        }
    }

    private func position(_ offset: Int) -> Int {
        let index = head + offset
        return index < slots.count ? index : index - slots.count
    }

    /// Doubles the buffer, moving the elements to its start in order.
    private mutating func grow() {
        var larger: [Element?] = []
        larger.reserveCapacity(Swift.max(8, slots.count * 2))
        for offset in 0..<count { larger.append(slots[position(offset)]) }
        larger.append(contentsOf: repeatElement(nil, count: larger.capacity - larger.count))
        slots = larger
        head = 0
    }
}
