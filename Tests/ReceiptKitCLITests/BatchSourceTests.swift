import Foundation
import Testing

@testable import receiptkit

/// `ReceiptBatchSource`'s limits.
@Suite struct BatchSourceTests {
    static func folder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("receiptkit-source-\(getpid())-\(name)")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func drain(_ source: ReceiptBatchSource) -> [ReceiptBatchSource.Item] {
        var items: [ReceiptBatchSource.Item] = []
        while let item = source.next() { items.append(item) }
        return items
    }

    @Test func overLongLinesAreFailedItemsAndReadingGoesOn() throws {
        let root = try Self.folder("lines")
        let file = root.appendingPathComponent("lines.txt")
        let long = String(repeating: "A", count: 250_000)  // longer than the limit and than the read buffer
        try Data("QUJD\n\(long)\nREVG\n  \nR0hJ".utf8).write(to: file)
        let source = ReceiptBatchSource([.base64Lines(file.path)], options: .init(maximumLineLength: 100))
        let items = Self.drain(source)
        #expect(items.map(\.line) == [1, 2, 3, 5])
        #expect(try items[0].contents() == Array("QUJD".utf8))
        expectInputFailure("input_too_large") { _ = try items[1].contents() }
        #expect(try items[2].contents() == Array("REVG".utf8))
        #expect(try items[3].contents() == Array("R0hJ".utf8))  // a last line without a newline counts
        #expect(items.allSatisfy { $0.base64 == true })
    }

    @Test func directoriesDeeperThanTheLimitAreFailedItems() throws {
        let root = try Self.folder("deep")
        var level = root
        for depth in 0..<4 {
            level = level.appendingPathComponent("d\(depth)")
            try FileManager.default.createDirectory(at: level, withIntermediateDirectories: true)
            try Data([0x30]).write(to: level.appendingPathComponent("r.der"))
        }
        let items = Self.drain(ReceiptBatchSource([.path(root.path)], options: .init(maximumDepth: 3)))
        let readable = items.filter { (try? $0.contents()) != nil }
        #expect(readable.map(\.file).sorted() == ["\(root.path)/d0/d1/r.der", "\(root.path)/d0/r.der"])
        let failed = items.filter { (try? $0.contents()) == nil }
        #expect(failed.map(\.file) == ["\(root.path)/d0/d1/d2"])
        let deep = try #require(failed.first)
        expectInputFailure("unreadable_file") { _ = try deep.contents() }
        do {
            _ = try deep.contents()
            Issue.record("a directory past the depth limit must be a failed item")
        } catch {
            #expect(error.reason.contains("deeper than 3 directory levels"))
        }
    }

    @Test func symbolicLinksToDirectoriesAreSkippedNotFollowed() throws {
        let root = try Self.folder("links")
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("loop.der"), withDestinationURL: root)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("dangling.der"),
            withDestinationURL: root.appendingPathComponent("nowhere")
        )
        let items = Self.drain(ReceiptBatchSource([.path(root.path)]))
        #expect(items.count == 2)
        let loop = try #require(items.first { $0.file.hasSuffix("loop.der") })
        #expect(try loop.contents() == nil)  // skipped: a link to a directory is never descended or read
        let dangling = try #require(items.first { $0.file.hasSuffix("dangling.der") })
        expectInputFailure("unreadable_file") { _ = try dangling.contents() }
    }
}

/// Expects `body` to throw an ``InputFailure`` with exactly `code`.
func expectInputFailure(_ code: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected \(code), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as InputFailure {
        #expect(error.code == code, "\(error.reason)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
}
