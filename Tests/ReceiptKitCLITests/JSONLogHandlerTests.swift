import Foundation
import Logging
@testable import receiptkit
import Testing

/// `serve --log-format json`'s lines: one JSON object each, whatever the message or metadata hold.
@Suite("JSON log lines")
struct JSONLogHandlerTests {
    static let time = Date(timeIntervalSince1970: 1_790_000_000.25)

    static func object(_ line: String) throws -> [String: Any] {
        #expect(line.hasSuffix("\n"))
        #expect(line.dropLast().contains("\n") == false)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("time, level, label and message, then the metadata as members; a reserved key is kept as metadata.KEY")
    func members() throws {
        let line = JSONLogHandler.line(
            time: Self.time, level: .notice, label: "receiptkit.serve", message: "two\nlines \"quoted\"",
            metadata: [
                "http_status": .stringConvertible(413), "reasons": .array([.string("a"), .string("b")]),
                "nested": .dictionary(["k": .string("v")]), "message": .string("not the message"),
            ])
        let object = try Self.object(line)
        #expect(object["time"] as? String == "2026-09-21T14:13:20.250Z")
        #expect(object["level"] as? String == "notice")
        #expect(object["label"] as? String == "receiptkit.serve")
        #expect(object["message"] as? String == "two\nlines \"quoted\"")
        #expect(object["metadata.message"] as? String == "not the message")
        #expect(object["http_status"] as? String == "413")
        #expect(object["reasons"] as? [String] == ["a", "b"])
        #expect((object["nested"] as? [String: String]) == ["k": "v"])
        #expect(object.count == 8)
    }

    @Test("the handler merges its own metadata under the event's and writes one line an event")
    func handler() throws {
        let written = LockedLines()
        var handler = JSONLogHandler(
            label: "test", logLevel: .info, write: { written.append($0) }, now: { Self.time })
        handler[metadataKey: "request_id"] = "r1"
        handler[metadataKey: "shared"] = "handler"
        let logger = Logger(label: "test") { _ in handler }
        logger.info("hello", metadata: ["shared": "event"])
        logger.debug("below the level")
        let lines = written.lines
        #expect(lines.count == 1)
        let object = try Self.object(try #require(lines.first))
        #expect(object["request_id"] as? String == "r1")
        #expect(object["shared"] as? String == "event")
    }
}

final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { self.lock.withLock { self.stored.append(line) } }
    var lines: [String] { self.lock.withLock { self.stored } }
}
