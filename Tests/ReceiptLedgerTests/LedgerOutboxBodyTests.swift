import Foundation
import ReceiptKit
@testable import ReceiptLedger
import LedgerTestSupport
import Testing

/// An outbox entry's body stored around its notification's signed payload (``OutboxBody``): the JWS written once,
/// in the notification's row, and every target's body put together again byte for byte; bodies that do not hold the
/// JWS as signed kept whole; an entry whose notification was removed by hand parked with the reason, not sent.
@Suite("Ledger outbox bodies")
struct LedgerOutboxBodyTests {
    /// A JWS-shaped payload of `length` characters.
    static func payload(_ seed: String, length: Int = 8_000) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SystemRandomNumberGenerator()
        let body = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        return seed + "." + body + ".sig"
    }

    static func notification(_ uuid: String, signedPayload: String, body: String, targets: [String] = ["a", "b"]) -> LedgerNotification {
        var notification = LedgerOutboxTests.notification(uuid, original: "1000", signed: 10, targets: targets, body: body)
        notification.signedPayload = signedPayload
        return notification
    }

    @Test("a body holding its signed payload is stored around it, and put together again byte for byte")
    func referenceRoundTrip() throws {
        let payload = Self.payload("eyJh")
        let body = Array("{ \"signedPayload\" :\t\"\(payload)\" }\r\n".utf8)
        let stored = OutboxBody.stored(body, signedPayload: payload)
        #expect(OutboxBody.refersToPayload(stored))
        #expect(stored.count == body.count - payload.utf8.count + 8)
        #expect(OutboxBody.restored(stored, signedPayload: payload) == body)
        // Without its payload, or with a prefix longer than what is stored, nothing is made up.
        #expect(OutboxBody.restored(stored, signedPayload: nil) == nil)
        var corrupt = stored
        corrupt[4] = 0xFF
        #expect(OutboxBody.restored(corrupt, signedPayload: payload) == nil)
        #expect(OutboxBody.restored(Array(stored.prefix(6)), signedPayload: payload) == nil)
        // The payload at the very start or end of the body (the prefix or suffix empty) as well.
        for edge in [payload + "\"}", "{\"signedPayload\":\"" + payload, payload] {
            let bytes = Array(edge.utf8)
            #expect(OutboxBody.restored(OutboxBody.stored(bytes, signedPayload: payload), signedPayload: payload) == bytes)
        }
    }

    @Test("the byte search agrees with a plain one: first occurrence, overlaps, ends, absent, empty and longer needles")
    func byteSearchAgrees() {
        func plain(_ needle: [UInt8], _ haystack: [UInt8]) -> Int? {
            guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
            return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
        }
        let cases: [(String, String)] = [
            ("abc", "xxabcxxabc"), ("aab", "aaab"), ("abab", "abababab"), ("c", "abc"), ("a", "abc"), ("abc", "abc"),
            ("abd", "abcabc"), ("", "abc"), ("abcd", "abc"), ("b", ""), ("xyz", "xyxyxyz"),
        ]
        for (needle, haystack) in cases {
            #expect(ByteSearch.firstOffset(of: Array(needle.utf8), in: Array(haystack.utf8)) == plain(Array(needle.utf8), Array(haystack.utf8)), "\(needle) in \(haystack)")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let haystack = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...2, using: &generator) }
            let needle = (0..<Int.random(in: 0...4, using: &generator)).map { _ in UInt8.random(in: 0...2, using: &generator) }
            #expect(ByteSearch.firstOffset(of: needle, in: haystack) == plain(needle, haystack), "\(needle) in \(haystack)")
        }
        #expect(ByteSearch.containsNUL("a\u{0}b") && ByteSearch.containsNUL("\u{0}") && !ByteSearch.containsNUL("") && !ByteSearch.containsNUL("é✓"))
    }

    @Test("a body that does not hold the payload as signed is kept whole; one starting with NUL is marked, not misread")
    func literalBodies() throws {
        let payload = Self.payload("eyJh", length: 64)
        // JSON may escape a character of the JWS ("\u0065" for "e"): the body no longer holds it as signed.
        let escaped = Array("{\"signedPayload\":\"\\u0065\(payload.dropFirst())\"}".utf8)
        #expect(OutboxBody.stored(escaped, signedPayload: payload) == escaped)
        #expect(OutboxBody.stored(escaped, signedPayload: nil) == escaped)
        #expect(OutboxBody.restored(escaped, signedPayload: nil) == escaped)
        // A body that itself begins with the reference's mark is stored with the literal mark before it.
        let marked = OutboxBody.referenceMark + [0, 0, 0, 0] + Array("x".utf8)
        let stored = OutboxBody.stored(marked, signedPayload: payload)
        #expect(stored == OutboxBody.literalMark + marked)
        #expect(!OutboxBody.refersToPayload(stored))
        #expect(OutboxBody.restored(stored, signedPayload: nil) == marked)
    }

    @Test("on every backend: the JWS is stored once, each target's entry lists and claims the body byte for byte", arguments: LedgerBackend.available)
    func storedOnce(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            let backendLedger = try #require(ledger as? any BackendLedger)
            let payload = Self.payload("eyJx")
            let body = "{\"signedPayload\":\"\(payload)\"}"
            #expect(try await ledger.recordNotification(Self.notification("n1", signedPayload: payload, body: body)))
            // Escaped, the second is kept whole.
            let escaped = "{\"signedPayload\":\"\\u0065\(payload.dropFirst())\"}"
            #expect(try await ledger.recordNotification(Self.notification("n2", signedPayload: payload, body: escaped)))

            let sizes = try await backendLedger.select(
                "SELECT notification_uuid, target, length(body) FROM receiptkit_notification_outbox ORDER BY notification_uuid, target")
            #expect(sizes == [
                [.text("n1"), .text("a"), .integer(Int64(body.utf8.count - payload.utf8.count + 8))],
                [.text("n1"), .text("b"), .integer(Int64(body.utf8.count - payload.utf8.count + 8))],
                [.text("n2"), .text("a"), .integer(Int64(escaped.utf8.count))],
                [.text("n2"), .text("b"), .integer(Int64(escaped.utf8.count))],
            ])

            let listed = try await ledger.outboxEntries(LedgerOutboxFilter())
            #expect(listed.map(\.body) == [Array(body.utf8), Array(body.utf8), Array(escaped.utf8), Array(escaped.utf8)])
            let claimed = try await ledger.claimOutbox(LedgerOutboxTests.claim("h", at: 100, targets: ["b"]))
            // One original transaction: its first entry by signedDate, then UUID, only.
            #expect(claimed.map(\.notificationUUID) == ["n1"])
            #expect(claimed.map(\.body) == [Array(body.utf8)])
        }
    }

    @Test("an entry whose notification was removed by hand is parked with the reason at its claim, and holds nothing back", arguments: LedgerBackend.available)
    func missingNotificationParks(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            let backendLedger = try #require(ledger as? any BackendLedger)
            let first = Self.payload("eyJ1", length: 200)
            let second = Self.payload("eyJ2", length: 200)
            var later = Self.notification("n2", signedPayload: second, body: "{\"signedPayload\":\"\(second)\"}", targets: ["a"])
            later.signedMilliseconds = 20
            #expect(try await ledger.recordNotification(Self.notification("n1", signedPayload: first, body: "{\"signedPayload\":\"\(first)\"}", targets: ["a"])))
            #expect(try await ledger.recordNotification(later))
            try await backendLedger.execute(["DELETE FROM receiptkit_notifications WHERE notification_uuid = 'n1'"])

            let listed = try await ledger.outboxEntries(LedgerOutboxFilter(notificationUUID: "n1"))
            #expect(listed.map(\.body) == [[]])
            #expect(listed.map(\.lastError) == [OutboxBody.missingPayloadError])

            // The claim parks n1 rather than sending an empty body; n2, next in its order, is then claimable.
            #expect(try await ledger.claimOutbox(LedgerOutboxTests.claim("h", at: 100)).isEmpty)
            let parked = try await ledger.outboxEntries(LedgerOutboxFilter(notificationUUID: "n1"))
            #expect(parked.map(\.state) == [.parked])
            #expect(try await ledger.outboxTotals() == [
                LedgerOutboxTotals(target: "a", pending: 1, parked: 1, oldestPendingMilliseconds: 15)
            ])
            let next = try await ledger.claimOutbox(LedgerOutboxTests.claim("h", at: 100))
            #expect(next.map(\.notificationUUID) == ["n2"])
            #expect(next.map(\.body) == [Array("{\"signedPayload\":\"\(second)\"}".utf8)])
        }
    }
}

