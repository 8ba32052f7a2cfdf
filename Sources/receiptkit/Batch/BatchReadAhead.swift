import Foundation
import ReceiptKit

/// Reads a batch's inputs ahead of its workers on a thread of its own, into a queue bounded in items and in bytes,
/// numbering them in input order.
///
/// Finding the next input can wait on the disk: a large directory's blocks are read as the walk reaches them, a list or
/// a line comes through a pipe. Measured on a large directory with two jobs, many of the workers' context switches were
/// `getdents` waiting for a directory block while the worker held the batch's lock, and the other worker then waited
/// for that lock (`Benchmarks/README.md`, Measurements). Here a waiting read holds up nobody while the queue has items.
///
/// Memory stays flat: at most `capacity` items and, past the first, `byteCapacity` bytes of them (a base64 line
/// may be megabytes) are held at once.
final class BatchReadAhead: @unchecked Sendable {
    private let condition = NSCondition()
    private let source: ReceiptBatchSource
    private let capacity: Int
    private let byteCapacity: Int
    // Guarded by `condition`:
    private var queue: [(sequence: Int, item: ReceiptBatchSource.Item)?] = []
    private var head = 0
    private var heldBytes = 0
    private var produced = 0
    private var finished = false
    /// The workers waiting for an input.
    private var waitingWorkers = 0
    /// Whether the reading thread sleeps until the queue is half empty.
    private var isWaitingForRoom = false

    init(source: ReceiptBatchSource, capacity: Int = 1024, byteCapacity: Int = 64 * 1024 * 1024) {
        self.source = source
        self.capacity = max(1, capacity)
        self.byteCapacity = max(1, byteCapacity)
        Thread.detachNewThread { [self] in self.produce() }
    }

    /// The next input and its sequence number (0, 1, 2… in input order), or `nil` when there are no more; waits
    /// while the reading thread has none ready.
    func next() -> (sequence: Int, item: ReceiptBatchSource.Item)? {
        self.condition.lock()
        defer { self.condition.unlock() }
        while self.head == self.queue.count, !self.finished {
            self.waitingWorkers += 1
            self.condition.wait()
            self.waitingWorkers -= 1
        }
        guard self.head < self.queue.count, let taken = self.queue[self.head] else { return nil }
        self.queue[self.head] = nil
        self.head += 1
        if self.head == self.queue.count {
            self.queue.removeAll(keepingCapacity: true)
            self.head = 0
        } else if self.head >= self.capacity {
            // Taken slots are dropped once they outnumber the bound on waiting ones: the array stays within
            // twice the capacity, and the move is at most `capacity` items.
            self.queue.removeFirst(self.head)
            self.head = 0
        }
        self.heldBytes -= taken.item.heldByteCount
        if self.isWaitingForRoom, !self.isAboveHalf { self.condition.broadcast() }
        return taken
    }

    /// The items read and not yet taken, and the bytes they hold.
    var held: (items: Int, bytes: Int) {
        self.condition.lock()
        defer { self.condition.unlock() }
        return (self.queue.count - self.head, self.heldBytes)
    }

    private var isFull: Bool {
        let count = self.queue.count - self.head
        return count >= self.capacity || (count > 0 && self.heldBytes >= self.byteCapacity)
    }

    /// Whether the queue holds more than half its bound: once full, the reading thread sleeps until it is not, so
    /// that it wakes once for half a queue of items, not once an item.
    private var isAboveHalf: Bool {
        let count = self.queue.count - self.head
        return count > self.capacity / 2 || (count > 0 && self.heldBytes > self.byteCapacity / 2)
    }

    private func produce() {
        while true {
            self.condition.lock()
            if self.isFull {
                self.isWaitingForRoom = true
                while self.isAboveHalf { self.condition.wait() }
                self.isWaitingForRoom = false
            }
            self.condition.unlock()

            // Outside the lock: this is the read that may wait.
            let item = self.source.next()

            self.condition.lock()
            if let item {
                self.queue.append((self.produced, item))
                self.produced += 1
                self.heldBytes += item.heldByteCount
            } else {
                self.finished = true
            }
            if self.waitingWorkers > 0 { self.condition.broadcast() }
            self.condition.unlock()
            if item == nil { return }
        }
    }
}
