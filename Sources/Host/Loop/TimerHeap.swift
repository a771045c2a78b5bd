/// A timer's handle, for cancelling it where it was scheduled. `Owner` is the kind of timers
/// it belongs to (``EventLoop/Timer``, on CLOCK_MONOTONIC; ``RunClock/Timer``, on run time),
/// so that a handle cannot be cancelled on the other's: `clock.cancel(loopTimer)` does not
/// compile.
struct TimerHandle<Owner>: Hashable, Sendable {
    let value: UInt64
}

/// A binary min-heap of deadlines with lazy cancellation; its handles are `TimerHandle<Owner>`.
struct TimerHeap<Owner> {
    private struct Entry {
        var deadline: UInt64
        var id: UInt64
        var body: () -> Void
    }
    private var heap: [Entry] = []
    private var pending: Set<UInt64> = []
    private var cancelled: Set<UInt64> = []
    private var nextID: UInt64 = 1

    var earliestDeadline: UInt64? {
        mutating get {
            dropCancelledTop()
            return heap.first?.deadline
        }
    }

    mutating func insert(deadline: UInt64, _ body: @escaping () -> Void) -> TimerHandle<Owner> {
        let id = nextID
        nextID += 1
        pending.insert(id)
        heap.append(Entry(deadline: max(deadline, 1), id: id, body: body))
        siftUp(heap.count - 1)
        return TimerHandle(value: id)
    }

    mutating func cancel(_ id: TimerHandle<Owner>) {
        if pending.remove(id.value) != nil { cancelled.insert(id.value) }
    }

    mutating func popDue(now: UInt64) -> (() -> Void)? {
        dropCancelledTop()
        guard let top = heap.first, top.deadline <= now else { return nil }
        removeTop()
        pending.remove(top.id)
        return top.body
    }

    private mutating func dropCancelledTop() {
        while let top = heap.first, cancelled.contains(top.id) {
            cancelled.remove(top.id)
            removeTop()
        }
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        (heap[a].deadline, heap[a].id) < (heap[b].deadline, heap[b].id)
    }

    private mutating func siftUp(_ index: Int) {
        var i = index
        while i > 0 {
            let parent = (i - 1) / 2
            guard less(i, parent) else { return }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var i = index
        while true {
            let l = 2 * i + 1, r = l + 1
            var smallest = i
            if l < heap.count && less(l, smallest) { smallest = l }
            if r < heap.count && less(r, smallest) { smallest = r }
            guard smallest != i else { return }
            heap.swapAt(i, smallest)
            i = smallest
        }
    }
}
