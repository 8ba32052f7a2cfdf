import AppStoreJWS
import AppStoreServerAPI
import Crypto
import Foundation
import LedgerTestSupport
import Logging
import LoopbackHTTPSupport
import NIOConcurrencyHelpers
import NIOHTTP1
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
@testable import ReceiptService
import ServiceLifecycle
import Testing

/// Forwarding verified notifications to the app's own backends through a real HTTP receiver on loopback, on every
/// ledger backend: the body byte for byte with its headers and signature, once per notification however often it
/// arrives, in `signedDate` order per original transaction, retried through failures and stalls until the deadline,
/// then parked; backfilled notifications too.
@Suite("Notification forwarding")
struct NotificationForwardingTests {
    typealias N = NotificationServiceTests
    typealias Clock = NotificationBackfillTests.Clock

    static let secret = "a-secret-of-the-entitlement-service"

    /// The service's configuration with the receiver's targets: `primary` with a secret, `plain` without.
    static func configuration(port: Int, adjust: (inout NotificationForwardingConfiguration) -> Void = { _ in }) throws -> VerifyReceiptConfiguration {
        try N.configuration { configuration in
            var forwarding = NotificationForwardingConfiguration()
            forwarding.targets = [
                NotificationTarget(
                    bundleIdentifier: N.bundle, url: "http://127.0.0.1:\(port)/apple?key=k", hmacSecret: Self.secret, name: "primary"),
                NotificationTarget(bundleIdentifier: N.bundle, url: "http://127.0.0.1:\(port)/plain"),
                NotificationTarget(bundleIdentifier: "com.example.other", url: "http://127.0.0.1:\(port)/other", name: "other"),
            ]
            forwarding.attemptTimeout = .milliseconds(500)
            adjust(&forwarding)
            configuration.notifications.forwarding = forwarding
        }
    }

    /// Runs the receiver, the components and their forwarder while `body` runs.
    static func withForwarding(
        _ ledger: any Ledger, clock: Clock, receiver: RecordingHTTPHandler,
        adjust: @escaping (inout NotificationForwardingConfiguration) -> Void = { _ in },
        before: @Sendable (ServiceComponents) async throws -> Void = { _ in },
        _ body: @Sendable (ServiceComponents) async throws -> Void
    ) async throws {
        try await Loopback.withServer(receiver) { port in
            let components = try ServiceComponents(
                configuration: try Self.configuration(port: port, adjust: adjust), ledger: ledger, now: { clock.now })
            let forwarder = try #require(components.forwarder)
            try await before(components)
            let running = Task { try await forwarder.run() }
            defer { running.cancel() }
            try await body(components)
            running.cancel()
            _ = await running.result
        }
    }

    /// Waits (at most 60 s) until `condition` holds.
    static func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("never: \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("POSTed byte for byte with its headers and HMAC, to each of the app's targets once, however often it arrives",
          arguments: LedgerBackend.available)
    func forwardedOnce(backend: LedgerBackend) async throws {
        let clock = Clock()
        let receiver = RecordingHTTPHandler { _, _, _ in (200, "") }
        // Apple's body as it came, spaces and all: forwarded as it is, not re-serialised.
        let compact = try N.body(uuid: "f0000000-0000-4000-8000-000000000001", type: "DID_RENEW")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(compact)) as? [String: String])
        let body = Array("{ \"signedPayload\" : \"\(try #require(object["signedPayload"]))\" }\n".utf8)
        try await backend.withLedger { ledger in
            try await Self.withForwarding(ledger, clock: clock, receiver: receiver) { components in
                #expect(await components.verifier.answerNotification(body: body).outcome == .recorded)
                #expect(await components.verifier.answerNotification(body: body).outcome == .duplicate)
                try await Self.eventually("both targets received it") { receiver.received.count >= 2 }
                // Delivered entries are gone, and nothing more comes: a duplicate is not forwarded.
                try await Self.eventually("the outbox empty") { try await ledger.outboxEntries(LedgerOutboxFilter()).isEmpty }
                try await Task.sleep(for: .milliseconds(300))
                let received = receiver.received
                #expect(received.count == 2)
                let signed = try #require(received.first { $0.head.uri == "/apple?key=k" })
                let plain = try #require(received.first { $0.head.uri == "/plain" })
                for request in [signed, plain] {
                    #expect(request.head.method == .POST)
                    #expect(request.body == body)
                    #expect(request.header("Content-Type") == "application/json")
                    #expect(request.header("X-ReceiptKit-Notification-UUID") == "f0000000-0000-4000-8000-000000000001")
                    #expect(request.header("X-ReceiptKit-Notification-Type") == "DID_RENEW")
                    #expect(request.header("X-ReceiptKit-Original-Transaction-Id") == "2000000000000001")
                    #expect(request.header("X-ReceiptKit-Environment") == "Production")
                    #expect(request.header("X-ReceiptKit-Bundle-Id") == N.bundle)
                    #expect(request.header("X-ReceiptKit-Attempt") == "1")
                    #expect(request.header("X-ReceiptKit-Notification-Subtype") == nil, "DID_RENEW here has none")
                }
                let expected = Self.hex(HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Array(Self.secret.utf8))))
                #expect(signed.header("X-ReceiptKit-Signature") == "sha256=" + expected)
                #expect(plain.header("X-ReceiptKit-Signature") == nil)
                // Counted once the round's settlement is written.
                try await Self.eventually("the delivery counted") {
                    String(decoding: components.metrics.exposition(), as: UTF8.self)
                        .contains(#"receiptkit_notification_forward_delivered_total{target="primary"} 1"#)
                }
                let metrics = String(decoding: components.metrics.exposition(), as: UTF8.self)
                #expect(metrics.contains(#"receiptkit_notification_forward_delivered_total{target="http://127.0.0.1:"#))
                #expect(!metrics.contains("/plain"), "the default name shows no path")
                #expect(metrics.contains(#"receiptkit_notification_forward_parked_total{target="other"} 0"#))
            }
        }
    }

    @Test("a target that fails, then stalls, then recovers gets every notification, in signedDate order per original transaction",
          arguments: LedgerBackend.available)
    func failsStallsRecovers(backend: LedgerBackend) async throws {
        let clock = Clock()
        // The first attempt 503, the second never answered (a stall past the attempt timeout), then 200.
        let receiver = RecordingHTTPHandler { index, _, _ in
            switch index {
            case 0: (503, "busy")
            case 1: nil
            default: (200, "")
            }
        }
        let base = N.signed
        // Three notifications of one original transaction, posted newest first; one of another.
        let bodies = try [
            (uuid: "f0000000-0000-4000-8000-000000000013", signed: base.addingTimeInterval(30), transaction: "2000000000000042"),
            (uuid: "f0000000-0000-4000-8000-000000000011", signed: base.addingTimeInterval(10), transaction: "2000000000000042"),
            (uuid: "f0000000-0000-4000-8000-000000000012", signed: base.addingTimeInterval(20), transaction: "2000000000000042"),
        ].map { item in
            try N.body(uuid: item.uuid, type: "DID_RENEW", signed: item.signed, transaction: N.transaction(item.transaction, signed: item.signed))
        }
        try await backend.withLedger { ledger in
            // Recorded while the target is down (the forwarder not running yet): sent in signedDate order once it runs.
            // (One that arrives after a later one of its original transaction was delivered is sent when it comes.)
            try await Self.withForwarding(ledger, clock: clock, receiver: receiver, adjust: { $0.targets = [$0.targets[0]] }, before: { components in
                for body in bodies {
                    #expect(await components.verifier.answerNotification(body: body).outcome == .recorded)
                }
            }) { components in
                // The first attempt (of ...011, the earliest) fails; its order waits.
                try await Self.eventually("the first attempt") { receiver.received.count >= 1 }
                try await Self.eventually("the failure recorded") {
                    try await ledger.outboxEntries(LedgerOutboxFilter(notificationUUID: "f0000000-0000-4000-8000-000000000011")).first?.lastError == "HTTP 503"
                }
                #expect(receiver.received.count == 1)
                let failed = try #require(try await ledger.outboxEntries(LedgerOutboxFilter(notificationUUID: "f0000000-0000-4000-8000-000000000011")).first)
                // Due again 5 to 10 s later (10 s, jittered): not before the clock gets there.
                let delay = failed.nextAttemptMilliseconds - clock.now.epochMilliseconds
                #expect((5_000...10_000).contains(delay), "\(delay)")
                try await Task.sleep(for: .milliseconds(300))
                #expect(receiver.received.count == 1)
                clock.advance(11)
                // The second attempt stalls past the attempt timeout; then it is due 10 to 20 s later.
                try await Self.eventually("the stalled attempt recorded") {
                    try await ledger.outboxEntries(LedgerOutboxFilter(notificationUUID: "f0000000-0000-4000-8000-000000000011")).first?.lastError?.hasPrefix("timeout") == true
                }
                clock.advance(21)
                try await Self.eventually("all three delivered") { receiver.received.count >= 5 }
                try await Self.eventually("the outbox empty") { try await ledger.outboxEntries(LedgerOutboxFilter()).isEmpty }
                let uuids = receiver.received.map { $0.header("X-ReceiptKit-Notification-UUID") ?? "" }
                #expect(uuids == [
                    "f0000000-0000-4000-8000-000000000011", "f0000000-0000-4000-8000-000000000011",
                    "f0000000-0000-4000-8000-000000000011", "f0000000-0000-4000-8000-000000000012",
                    "f0000000-0000-4000-8000-000000000013",
                ])
                #expect(receiver.received.map { $0.header("X-ReceiptKit-Attempt") ?? "" } == ["1", "2", "3", "1", "1"])
                try await Self.eventually("the deliveries counted") {
                    String(decoding: components.metrics.exposition(), as: UTF8.self)
                        .contains(#"receiptkit_notification_forward_delivered_total{target="primary"} 3"#)
                }
                let metrics = String(decoding: components.metrics.exposition(), as: UTF8.self)
                #expect(metrics.contains(#"receiptkit_notification_forward_retried_total{target="primary"} 2"#))
                #expect(metrics.contains(#"receiptkit_notification_forward_delivered_total{target="primary"} 3"#))
            }
        }
    }

    @Test("past its deadline an entry is parked and counted; retried by an operator, it is delivered", arguments: LedgerBackend.available)
    func parkedThenRetried(backend: LedgerBackend) async throws {
        let clock = Clock()
        let receiver = RecordingHTTPHandler { _, _, _ in (500, "no") }
        let body = try N.body(uuid: "f0000000-0000-4000-8000-000000000021", type: "DID_RENEW")
        try await backend.withLedger { ledger in
            try await Self.withForwarding(ledger, clock: clock, receiver: receiver, adjust: {
                $0.targets = [$0.targets[0]]
                $0.deadline = .seconds(60)
            }) { components in
                #expect(await components.verifier.answerNotification(body: body).outcome == .recorded)
                try await Self.eventually("the first failure") {
                    try await ledger.outboxEntries(LedgerOutboxFilter()).first?.lastError == "HTTP 500"
                }
                let entry = try #require(try await ledger.outboxEntries(LedgerOutboxFilter()).first)
                #expect(entry.deadlineMilliseconds == clock.now.epochMilliseconds + 60_000)
                // Retries stop at the deadline: the last one is due then, and its failure parks the entry.
                clock.advance(30)
                try await Self.eventually("the second failure") { receiver.received.count >= 2 }
                clock.advance(31)
                try await Self.eventually("parked") {
                    try await ledger.outboxEntries(LedgerOutboxFilter(state: .parked)).count == 1
                }
                let attempts = receiver.received.count
                clock.advance(3600)
                try await Task.sleep(for: .milliseconds(300))
                #expect(receiver.received.count == attempts, "a parked entry is not sent")
                #expect(String(decoding: components.metrics.exposition(), as: UTF8.self).contains(#"receiptkit_notification_forward_parked_total{target="primary"} 1"#))

                receiver.answer { _, _, _ in (204, "") }
                let retried = try await ledger.retryOutbox(
                    LedgerOutboxFilter(state: .parked), atMilliseconds: clock.now.epochMilliseconds,
                    deadlineMilliseconds: clock.now.epochMilliseconds + 60_000)
                #expect(retried == 1)
                try await Self.eventually("delivered after the retry") { try await ledger.outboxEntries(LedgerOutboxFilter()).isEmpty }
                #expect(receiver.received.last?.status == 204)
            }
        }
    }

    @Test("a backfilled notification is forwarded as Apple would have posted it", arguments: LedgerBackend.available)
    func backfilledForwarded(backend: LedgerBackend) async throws {
        let clock = Clock()
        let receiver = RecordingHTTPHandler { _, _, _ in (200, "") }
        let posted = try N.body(uuid: "f0000000-0000-4000-8000-000000000031", type: "DID_RENEW")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(posted)) as? [String: String])
        let jws = try #require(object["signedPayload"])
        try await backend.withLedger { ledger in
            try await Self.withForwarding(ledger, clock: clock, receiver: receiver, adjust: { $0.targets = [$0.targets[0]] }) { components in
                let answer = await components.verifier.answerBackfilledNotification(
                    signedPayload: jws, environment: .production, bundleIdentifier: N.bundle)
                #expect(answer.outcome == .recorded)
                try await Self.eventually("forwarded") { receiver.received.count >= 1 }
                #expect(receiver.received.first?.body == Array(#"{"signedPayload":"\#(jws)"}"#.utf8))
            }
        }
    }

    @Test("an unreachable target is retried; the notification is answered 200 to Apple at once")
    func unreachableTarget() async throws {
        let clock = Clock()
        try await Loopback.withRefusingPort { port in
            try await LedgerBackend.sqliteMemory.withLedger { ledger in
                var configuration = try Self.configuration(port: port)
                configuration.notifications.forwarding.targets = [configuration.notifications.forwarding.targets[0]]
                let components = try ServiceComponents(configuration: configuration, ledger: ledger, now: { clock.now })
                let forwarder = try #require(components.forwarder)
                let answer = await components.verifier.answerNotification(body: try N.body(uuid: "f0000000-0000-4000-8000-000000000041"))
                #expect(answer.outcome == .recorded && answer.httpStatus == 200)
                #expect(try await forwarder.round(configuration.notifications.forwarding.targets[0]) == 1)
                let entry = try #require(try await ledger.outboxEntries(LedgerOutboxFilter()).first)
                #expect(entry.state == .pending && entry.attempts == 1)
                #expect(entry.lastError?.hasPrefix("connection") == true, "\(entry.lastError ?? "")")
            }
        }
    }

    @Test("two instances on one PostgreSQL ledger share the outbox: each notification once, in signedDate order per original transaction",
          .enabled(if: LedgerBackend.available.contains(.postgres), Comment(rawValue: LedgerBackend.postgresSkipMessage)))
    func twoInstances() async throws {
        let clock = Clock()
        let receiver = RecordingHTTPHandler { _, _, _ in (200, "") }
        // Five notifications of each of eight original transactions, each posted to either instance, newest first.
        var posts: [(uuid: String, original: String, body: [UInt8])] = []
        for original in 0..<8 {
            for step in (0..<5).reversed() {
                let signed = N.signed.addingTimeInterval(Double(step))
                let uuid = String(format: "f1000000-0000-4000-8000-%06d%06d", original, step)
                let originalID = "30000000000000\(10 + original)"
                var transaction = N.transaction("4000000000\(original)\(step)", signed: signed)
                transaction["originalTransactionId"] = .string(originalID)
                posts.append((uuid, originalID, try N.body(uuid: uuid, type: "DID_RENEW", signed: signed, transaction: transaction)))
            }
        }
        let all = posts
        try await LedgerBackend.withTwoPostgresLedgers { a, b in
            try await Loopback.withServer(receiver) { port in
                var configuration = try Self.configuration(port: port)
                configuration.notifications.forwarding.targets = [configuration.notifications.forwarding.targets[0]]
                let instances = try [a, b].map { ledger in
                    try ServiceComponents(configuration: configuration, ledger: ledger, now: { clock.now })
                }
                for (index, post) in all.enumerated() {
                    #expect(await instances[index % 2].verifier.answerNotification(body: post.body).outcome == .recorded)
                }
                let running = try instances.map { components in
                    let forwarder = try #require(components.forwarder)
                    return Task { try await forwarder.run() }
                }
                defer { for task in running { task.cancel() } }
                try await Self.eventually("every notification forwarded") { receiver.received.count >= all.count }
                try await Self.eventually("the outbox empty") { try await a.outboxEntries(LedgerOutboxFilter()).isEmpty }
                try await Task.sleep(for: .milliseconds(300))
                let uuids = receiver.received.map { $0.header("X-ReceiptKit-Notification-UUID") ?? "" }
                #expect(uuids.count == all.count)
                #expect(Set(uuids) == Set(all.map(\.uuid)))
                for original in Set(all.map(\.original)) {
                    let sent = receiver.received.filter { $0.header("X-ReceiptKit-Original-Transaction-Id") == original }
                        .map { $0.header("X-ReceiptKit-Notification-UUID") ?? "" }
                    #expect(sent.count == 5 && sent == sent.sorted(), "\(original): \(sent)")
                }
                for task in running { task.cancel() }
                for task in running { _ = await task.result }
            }
        }
    }

    @Test("a graceful shutdown lets the round in flight finish and records it; a target left behind is named in the log")
    func gracefulShutdownFinishesTheRound() async throws {
        let clock = Clock()
        let receiver = RecordingHTTPHandler { _, _, _ in nil }  // never answers: the attempt runs to its timeout
        let logs = CapturedLogs()
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            // An entry of a target this instance does not know (one removed from the settings).
            var orphan = try Self.configuration(port: 9)
            orphan.notifications.forwarding.targets[0].name = "removed"
            let before = try ServiceComponents(configuration: orphan, ledger: ledger, now: { clock.now })
            #expect(await before.verifier.answerNotification(body: try N.body(uuid: "f0000000-0000-4000-8000-000000000051")).outcome == .recorded)
            try await Loopback.withServer(receiver) { port in
                var configuration = try Self.configuration(port: port) { $0.attemptTimeout = .seconds(1) }
                configuration.notifications.forwarding.targets = [configuration.notifications.forwarding.targets[0]]
                let components = try ServiceComponents(
                    configuration: configuration, ledger: ledger, logger: logs.logger, now: { clock.now })
                let forwarder = try #require(components.forwarder)
                #expect(await components.verifier.answerNotification(body: try N.body(uuid: "f0000000-0000-4000-8000-000000000052")).outcome == .recorded)
                let group = ServiceGroup(configuration: .init(services: [forwarder], logger: Logger(label: "test")))
                try await withThrowingTaskGroup(of: Void.self) { tasks in
                    tasks.addTask { try await group.run() }
                    try await Self.eventually("the attempt in flight") { receiver.received.count >= 1 }
                    try await Self.eventually("the orphaned target named") {
                        logs.all.contains { $0.level == .warning && $0.message.contains("does not know") && $0.metadata["target"] == "removed" }
                    }
                    await group.triggerGracefulShutdown()
                    try await tasks.waitForAll()
                }
                // The attempt ran to its timeout and was recorded before the service stopped: not left leased.
                let entry = try #require(try await ledger.outboxEntries(LedgerOutboxFilter(target: "primary")).first)
                #expect(entry.lastError?.hasPrefix("timeout") == true, "\(entry.lastError ?? "")")
                #expect(entry.attempts == 1 && receiver.received.count == 1)
                #expect(try await ledger.outboxEntries(LedgerOutboxFilter(target: "removed")).count == 1, "not sent, not dropped")
            }
        }
    }

    @Test("a round's attempts are all in flight at once, not queued behind the HTTP client's 8 connections to a host")
    func aRoundIsSentAtOnce() async throws {
        let clock = Clock()
        let receiver = RecordingHTTPHandler { _, _, _ in nil }  // reads every request, answers none
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            // 16 customers, so that no entry waits for another's; attempts far longer than the wait below, so that
            // a request queued behind the first 8 could only go once one of those had timed out.
            try await Self.withForwarding(
                ledger, clock: clock, receiver: receiver,
                adjust: { forwarding in
                    forwarding.targets = [forwarding.targets[1]]
                    forwarding.attemptTimeout = .seconds(120)
                    forwarding.maximumInFlight = 16
                },
                // Recorded before the forwarder starts, so that its first round claims all 16.
                before: { components in
                    for index in 0..<16 {
                        let original = String(3_000_000_000_000_000 + index)
                        let transaction = N.transaction(String(3_100_000_000_000_000 + index)) { fields in
                            fields["originalTransactionId"] = .string(original)
                        }
                        let uuid = String(format: "f0000000-0000-4000-8000-%012d", 100 + index)
                        let body = try N.body(uuid: uuid, transaction: transaction)
                        #expect(await components.verifier.answerNotification(body: body).outcome == .recorded)
                    }
                }
            ) { components in
                try await Self.eventually("16 requests read while none is answered") { receiver.received.count == 16 }
                #expect(Set(receiver.received.compactMap { $0.header("X-ReceiptKit-Original-Transaction-Id") }).count == 16)
            }
        }
    }

    @Test("a 2xx whose body is longer than what is read still acknowledges the notification")
    func aLongAcknowledgementIsDelivered() async throws {
        let clock = Clock()
        let receiver = RecordingHTTPHandler { _, _, _ in (200, String(repeating: "x", count: 20_000)) }
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            try await Self.withForwarding(ledger, clock: clock, receiver: receiver, adjust: { $0.targets = [$0.targets[0]] }) { components in
                #expect(await components.verifier.answerNotification(body: try N.body(uuid: "f0000000-0000-4000-8000-000000000061")).outcome == .recorded)
                try await Self.eventually("delivered") { try await ledger.outboxEntries(LedgerOutboxFilter()).isEmpty }
                #expect(receiver.received.count == 1)
            }
        }
    }

    @Test("the signature is RFC 4231's HMAC-SHA256 in lower-case hex; header values stay one printable line")
    func signatureAndHeaderValues() {
        // RFC 4231, test case 2.
        #expect(ForwardedRequest.signature(Array("what do ya want for nothing?".utf8), secret: "Jefe")
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(ForwardedRequest.fieldValue("DID_RENEW") == "DID_RENEW")
        #expect(ForwardedRequest.fieldValue("A\r\nX-Injected: 1") == "A??X-Injected: 1")
        #expect(ForwardedRequest.fieldValue("é") == "?")
        #expect(ForwardedRequest.fieldValue(String(repeating: "x", count: 1000)).count == 256)
    }

    @Test("the retry delay doubles from the base delay, at most the maximum, jittered to half of it at least")
    func backoff() async throws {
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            let jitter = NIOLockedValueBox(0.999_999)
            var configuration = NotificationForwardingConfiguration()
            configuration.targets = [NotificationTarget(bundleIdentifier: N.bundle, url: "http://127.0.0.1:9/x")]
            let forwarder = NotificationForwarder(
                configuration: configuration, ledger: ledger, transport: AsyncHTTPTransport(), metrics: ServiceMetrics(),
                signal: OutboxSignal(), logger: Logger(label: "test"), now: { ServiceTestPKI.now },
                random: { jitter.withLockedValue { $0 } })
            #expect((9_999...10_000).contains(forwarder.delayMilliseconds(afterAttempt: 1)))
            #expect((19_999...20_000).contains(forwarder.delayMilliseconds(afterAttempt: 2)))
            #expect((159_999...160_000).contains(forwarder.delayMilliseconds(afterAttempt: 5)))
            #expect((3_599_990...3_600_000).contains(forwarder.delayMilliseconds(afterAttempt: 20)))
            #expect(forwarder.delayMilliseconds(afterAttempt: .max) <= 3_600_000)
            jitter.withLockedValue { $0 = 0 }
            #expect(forwarder.delayMilliseconds(afterAttempt: 1) == 5_000)
            #expect(forwarder.delayMilliseconds(afterAttempt: 0) == 5_000)
            #expect(forwarder.delayMilliseconds(afterAttempt: -3) == 5_000)
        }
    }
}
