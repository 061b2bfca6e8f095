/// A first-in, first-out queue on an array: taking the first element moves a head index, and the
/// array is compacted only once the taken part is large, so each operation costs O(1) amortised
/// and a queue that drains often reuses its storage.
struct FIFOQueue<Element> {
    private var items: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }
    var first: Element? { isEmpty ? nil : items[head] }
    var last: Element? { isEmpty ? nil : items[items.count - 1] }

    mutating func append(_ element: Element) {
        items.append(element)
    }

    mutating func popFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1_024 {
            items.removeFirst(head)
            head = 0
        }
        return element
    }
}
