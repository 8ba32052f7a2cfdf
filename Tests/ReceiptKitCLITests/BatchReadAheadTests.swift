import Foundation
import ReceiptKit
import Testing

@testable import receiptkit

/// The thread that reads a batch's inputs ahead: input order numbered, nothing lost or repeated, the bounds kept.
@Suite struct BatchReadAheadTests {
    /// Paths through a list, taken by four threads at once through a queue of three.
    @Test func everyInputIsTakenOnceWithItsInputOrderNumber() throws {
        let list = try BatchCLITests.folder("read-ahead").appendingPathComponent("list.txt")
        let paths = (0..<2000).map { "/nowhere/receipt-\($0).der" }
        try Data(paths.joined(separator: "\n").utf8).write(to: list)
        let readAhead = BatchReadAhead(source: ReceiptBatchSource([.pathList(list.path)]), capacity: 3)

        let taken = LockedList()
        let threads = 4
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                while let (sequence, item) = readAhead.next() {
                    let held = readAhead.held
                    taken.append((sequence, item.file, held.items))
                }
                done.leave()
            }
        }
        done.wait()
        let entries = taken.entries.sorted { $0.sequence < $1.sequence }
        #expect(entries.map(\.sequence) == Array(0..<2000))
        #expect(entries.map(\.file) == paths)
        #expect(entries.allSatisfy { $0.held <= 3 })
        #expect(readAhead.next() == nil, "finished stays finished")
    }

    /// Long base64 lines: past the first, no more than the byte bound is held, however far behind the workers are.
    @Test func heldBytesStayWithinTheBound() throws {
        let file = try BatchCLITests.folder("read-ahead-bytes").appendingPathComponent("lines.txt")
        let line = String(repeating: "QUJD", count: 4 * 1024)  // 16 KiB of base64
        try Data(Array(repeating: line, count: 40).joined(separator: "\n").utf8).write(to: file)
        let readAhead = BatchReadAhead(
            source: ReceiptBatchSource([.base64Lines(file.path)]),
            capacity: 1024,
            byteCapacity: 64 * 1024
        )
        var count = 0
        var mostHeld = 0
        while true {
            // Let the reading thread run as far as its bounds allow before each take: until what it holds stops
            // changing (a debug build reads a line in milliseconds).
            var held = readAhead.held
            var unchanged = 0
            while unchanged < 5 {
                Thread.sleep(forTimeInterval: 0.002)
                let now = readAhead.held
                unchanged = now == held ? unchanged + 1 : 0
                held = now
            }
            mostHeld = max(mostHeld, held.items)
            #expect(held.bytes <= 64 * 1024 + line.utf8.count, "at most one item past the bound")
            #expect(held.items <= 5)
            guard let (sequence, item) = readAhead.next() else { break }
            #expect(sequence == count)
            #expect(item.line == count + 1)
            count += 1
        }
        #expect(count == 40)
        #expect(mostHeld >= 4, "the reading thread ran ahead up to the bound")
    }
}

/// What the taking threads saw, gathered behind a lock.
private final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [(sequence: Int, file: String, held: Int)] = []

    func append(_ entry: (sequence: Int, file: String, held: Int)) {
        self.lock.withLock { self.list.append(entry) }
    }

    var entries: [(sequence: Int, file: String, held: Int)] {
        self.lock.withLock { self.list }
    }
}
