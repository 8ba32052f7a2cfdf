import Foundation
import Testing

@testable import ReceiptKit

/// `ReceiptBatchSource`'s limits, and the Pacific-time rules the JSON dates use.
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
        expectReceiptError(.inputTooLarge) { _ = try items[1].contents() }
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
        expectReceiptError(.unreadableFile) { _ = try deep.contents() }
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
        expectReceiptError(.unreadableFile) { _ = try dangling.contents() }
    }

    /// The US daylight-saving rules agree with the time-zone database at every transition from 1987 through 2099
    /// (one millisecond and one hour either side) and at noon on every day of a few sample years.
    @Test func pacificRulesAgreeWithTheTimeZoneDatabase() throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        var instant = Date(epochMilliseconds: 536_457_600_000)
        let end = Date(epochMilliseconds: 4_102_444_800_000)
        var transitions = 0
        while let next = zone.nextDaylightSavingTimeTransition(after: instant), next < end {
            let ms = next.epochMilliseconds
            for probe in [ms - 3_600_000, ms - 1, ms, ms + 1, ms + 3_600_000] {
                let expected = zone.secondsFromGMT(for: Date(epochMilliseconds: probe))
                #expect(PacificTime.ruleOffset(epochMilliseconds: probe) == expected, "\(Date(epochMilliseconds: probe))")
            }
            transitions += 1
            instant = next
        }
        #expect(transitions == 2 * 113)
        for year in [1987, 2006, 2007, 2026, 2099] {
            let start = Int64(CivilTime.daysFromCivil(year: year, month: 1, day: 1)) * 86_400_000 + 20 * 3_600_000
            for day in 0..<365 {
                let probe = start + Int64(day) * 86_400_000
                #expect(PacificTime.ruleOffset(epochMilliseconds: probe) == zone.secondsFromGMT(for: Date(epochMilliseconds: probe)))
            }
        }
        #expect(PacificTime.ruleOffset(epochMilliseconds: 536_457_599_999) == nil)
        #expect(PacificTime.ruleOffset(epochMilliseconds: 4_102_444_800_000) == nil)
    }
}
