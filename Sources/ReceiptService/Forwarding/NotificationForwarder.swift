import AppStoreServerAPI
import struct Foundation.Date
import Logging
import NIOConcurrencyHelpers
import ReceiptKit
import ReceiptLedger
import ServiceLifecycle

/// Sends outbox entries to their targets (``NotificationForwardingConfiguration``): a lifecycle service beside the
/// server with one loop per target, so that a target that fails or stalls holds back only its own entries. Each
/// loop claims the target's due entries that are first in their original transaction's order (leased to this
/// instance), POSTs them at once, at most ``NotificationForwardingConfiguration/maximumInFlight``, and settles the
/// round in one write: a 2xx deletes an entry, anything else schedules its next attempt, or parks it past its
/// deadline. A loop with nothing
/// due waits for this instance's next notification or polls every second (another instance's).
final class NotificationForwarder: Service, Sendable {
    let configuration: NotificationForwardingConfiguration
    let ledger: any Ledger
    let transport: any HTTPTransport
    let metrics: ServiceMetrics
    let logger: Logger
    let now: @Sendable () -> Date
    /// A number in [0, 1) for each retry's jitter (injected: tests pin it).
    let random: @Sendable () -> Double
    let signal: OutboxSignal
    /// How often a loop with nothing due looks again.
    let pollInterval: Duration
    /// Set by a graceful shutdown: no new round starts, the rounds in flight finish and are settled.
    private let stopping = NIOLockedValueBox(false)
    /// Wakes the totals' loop when the service stops.
    private let stopped = OutboxSignal()
    /// Who this instance is in the outbox's leases.
    let holder = "forward-" + String(UInt64.random(in: 1...UInt64.max), radix: 16)
        + String(UInt64.random(in: 1...UInt64.max), radix: 16)

    init(
        configuration: NotificationForwardingConfiguration, ledger: any Ledger, transport: any HTTPTransport,
        metrics: ServiceMetrics, signal: OutboxSignal, logger: Logger, now: @escaping @Sendable () -> Date,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, pollInterval: Duration = .seconds(1)
    ) {
        self.configuration = configuration
        self.ledger = ledger
        self.transport = transport
        self.metrics = metrics
        self.signal = signal
        self.logger = logger
        self.now = now
        self.random = random
        self.pollInterval = pollInterval
        metrics.trackForwarding(of: configuration.targets.map(\.name))
    }

    /// How long a claimed entry stays this instance's if it never settles it (it stopped mid-send): twice an
    /// attempt's timeout and 5 s, for the attempt and its settlement; an entry whose lease lapses anyway is sent
    /// again (at least once).
    var leaseMilliseconds: Int64 {
        let attempt = NotificationBackfillService.milliseconds(self.configuration.attemptTimeout)
        return attempt.multipliedReportingOverflow(by: 2).partialValue.addingReportingOverflow(5_000).partialValue
    }

    /// One loop per target until the service shuts down. A graceful shutdown lets the rounds in flight finish (each
    /// attempt bounded by its timeout) and records them, so that what was delivered is not sent again; cancelled, an
    /// attempt in flight is left to its lease (sent again after it lapses: at least once).
    func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                for target in self.configuration.targets {
                    group.addTask { await self.loop(target) }
                }
                group.addTask { await self.observeTotals() }
            }
        } onGracefulShutdown: {
            self.stopping.withLockedValue { $0 = true }
            self.signal.poke()
            self.stopped.poke()
        }
    }

    /// Whether no new round may start: the service is stopping.
    var isStopping: Bool {
        Task.isCancelled || self.stopping.withLockedValue { $0 }
    }

    private func loop(_ target: NotificationTarget) async {
        var failing = false
        while !self.isStopping {
            let sent: Int
            do {
                sent = try await self.round(target)
                if failing {
                    self.logger.notice("notification forwarding reads the ledger again", metadata: ["target": "\(target.name)"])
                    failing = false
                }
            } catch {
                // Said once per outage, not every second.
                if !failing {
                    self.logger.warning(
                        "notification forwarding cannot read the outbox",
                        metadata: ["target": "\(target.name)", "reason": "\(error.reason)"])
                    failing = true
                }
                sent = 0
            }
            if sent == 0 { await self.signal.wait(atMost: self.pollInterval) }
        }
    }

    /// Claims and sends one batch of `target`'s due entries, and settles them together.
    /// - Returns: How many it claimed (0: nothing was due).
    func round(_ target: NotificationTarget) async throws(LedgerError) -> Int {
        // A claim made while stopping would only lease entries nobody sends until the lease lapses.
        guard !self.isStopping else { return 0 }
        let claim = LedgerOutboxClaim(
            targets: [target.name], holder: self.holder, atMilliseconds: self.now().epochMilliseconds,
            leaseMilliseconds: self.leaseMilliseconds, limit: self.configuration.maximumInFlight)
        let entries = try await self.ledger.claimOutbox(claim)
        let ended = await withTaskGroup(of: (LedgerOutboxEntry, LedgerOutboxSettlement.Outcome?).self) { group in
            for entry in entries {
                group.addTask { (entry, await self.attempt(entry, to: target)) }
            }
            var ended: [(LedgerOutboxEntry, LedgerOutboxSettlement.Outcome)] = []
            for await (entry, outcome) in group {
                if let outcome { ended.append((entry, outcome)) }
            }
            return ended
        }
        await self.settle(ended, target: target)
        return entries.count
    }

    /// One attempt: how it ended, or `nil` when the service stopped mid-send (the lease lapses and the entry is
    /// sent again then).
    func attempt(_ entry: LedgerOutboxEntry, to target: NotificationTarget) async -> LedgerOutboxSettlement.Outcome? {
        let request = ForwardedRequest.make(entry, to: target)
        let failure: String
        do {
            // The answer's body is not read past 4 KiB: a 2xx whose body is longer acknowledges all the same.
            let response = try await self.transport.send(
                request, timeout: self.configuration.attemptTimeout, maximumResponseSize: 4 * 1024)
            if (200..<300).contains(response.status) { return .delivered }
            failure = "HTTP \(response.status)"
        } catch {
            if error.kind == .cancelled || Task.isCancelled { return nil }
            if error.kind == .responseTooLarge, let status = error.status, (200..<300).contains(status) { return .delivered }
            failure = "\(error.kind.rawValue): \(error.description)"
        }
        let at = self.now().epochMilliseconds
        if at >= entry.deadlineMilliseconds { return .parked(error: Self.printable(failure)) }
        let next = at.addingReportingOverflow(self.delayMilliseconds(afterAttempt: entry.attempts))
        return .retry(
            atMilliseconds: min(next.overflow ? .max : next.partialValue, entry.deadlineMilliseconds),
            error: Self.printable(failure))
    }

    /// The delay before the attempt after `attempts` attempts: the base delay doubled for each attempt after the
    /// first, at most the maximum, then half to all of it (jitter, so that entries failed together spread out).
    func delayMilliseconds(afterAttempt attempts: Int64) -> Int64 {
        let base = Double(NotificationBackfillService.milliseconds(self.configuration.baseDelay))
        let cap = Double(NotificationBackfillService.milliseconds(self.configuration.maximumDelay))
        let doublings = Double(attempts <= 1 ? 0 : min(attempts, 61) - 1)
        let full = min(base * Double.pow2(doublings), cap)
        let jittered = full * (0.5 + 0.5 * min(max(self.random(), 0), 1))
        // Within Int64 whatever the configured delays (9.2e18 ms is far past any deadline).
        return jittered.isFinite && jittered < 9.2e18 ? Int64(max(0, jittered)) : 9_200_000_000_000_000_000
    }

    /// Records a round's attempts in one write, then counts and logs them.
    private func settle(_ ended: [(LedgerOutboxEntry, LedgerOutboxSettlement.Outcome)], target: NotificationTarget) async {
        guard !ended.isEmpty else { return }
        let settlements = ended.map { entry, outcome in
            LedgerOutboxSettlement(target: target.name, notificationUUID: entry.notificationUUID, holder: self.holder, outcome: outcome)
        }
        do {
            try await self.ledger.settleOutbox(settlements)
        } catch {
            // Unsettled, the entries' leases lapse and they are sent again: at least once.
            self.logger.warning(
                "notification forwarding could not record its attempts",
                metadata: ["target": "\(target.name)", "attempts": "\(ended.count)", "reason": "\(error.reason)"])
        }
        for (entry, outcome) in ended {
            self.metrics.countForwardAttempt(target: target.name, outcome: outcome)
            switch outcome {
            case .delivered:
                break
            case .retry(let at, let error):
                self.logger.info(
                    "a notification target did not acknowledge; retried later",
                    metadata: [
                        "target": "\(target.name)", "notification_uuid": "\(entry.notificationUUID)",
                        "attempt": "\(entry.attempts)", "reason": "\(error)", "next_attempt_ms": "\(at)",
                    ])
            case .parked(let error):
                self.logger.warning(
                    "a notification was parked: its target did not acknowledge it before the deadline",
                    metadata: [
                        "target": "\(target.name)", "notification_uuid": "\(entry.notificationUUID)",
                        "attempts": "\(entry.attempts)", "reason": "\(error)",
                    ])
            }
        }
    }

    /// Keeps the outbox gauges (every target's pending and parked entries, the oldest pending one's age) from the
    /// ledger, every few seconds.
    private func observeTotals() async {
        var warned = Set<String>()
        let known = Set(self.configuration.targets.map(\.name))
        while !self.isStopping {
            if let totals = try? await self.ledger.outboxTotals() {
                let byName = Dictionary(totals.map { ($0.target, $0) }) { first, _ in first }
                let now = self.now().epochMilliseconds
                for target in self.configuration.targets {
                    self.metrics.setOutbox(
                        byName[target.name]
                            ?? LedgerOutboxTotals(target: target.name, pending: 0, parked: 0, oldestPendingMilliseconds: nil),
                        nowMilliseconds: now)
                }
                // Entries of a target no instance here sends to (removed, renamed) wait for ever: said once.
                for total in totals where !known.contains(total.target) && total.pending > 0 && !warned.contains(total.target) {
                    warned.insert(total.target)
                    self.logger.warning(
                        "the outbox holds entries of a target this instance does not know; they are not sent",
                        metadata: [
                            "target": "\(total.target)", "pending": "\(total.pending)",
                            "remedy": "name the target again in notification_targets, or: receiptkit notifications outbox drop --target NAME",
                        ])
                }
            }
            await self.stopped.wait(atMost: .seconds(5))
        }
    }

    /// A failure's text, printable ASCII and at most 300 characters (a target's status line is an input).
    static func printable(_ text: String) -> String {
        let kept = text.unicodeScalars.prefix(300).map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" }
        return String(kept)
    }
}

extension Double {
    /// 2 to the power `exponent` (a small whole number here).
    fileprivate static func pow2(_ exponent: Double) -> Double {
        Double(sign: .plus, exponent: Int(exponent), significand: 1)
    }
}
