import Prometheus
import ReceiptLedger

extension ServiceMetrics {
    /// Exposes every forwarding series of `targets` at 0 (each target's name is its label).
    func trackForwarding(of targets: [String]) {
        for target in targets {
            for descriptor in [Self.forwardDelivered, Self.forwardRetried, Self.forwardParked] {
                _ = self.registry.makeCounter(descriptor: descriptor, labels: [("target", target)])
            }
            self.setOutbox(LedgerOutboxTotals(target: target, pending: 0, parked: 0, oldestPendingMilliseconds: nil), nowMilliseconds: 0)
        }
    }

    /// Counts one attempt's end for `target`: delivered, failed and due again, or failed and parked.
    func countForwardAttempt(target: String, outcome: LedgerOutboxSettlement.Outcome) {
        let descriptor: MetricNameDescriptor
        switch outcome {
        case .delivered: descriptor = Self.forwardDelivered
        case .retry: descriptor = Self.forwardRetried
        case .parked: descriptor = Self.forwardParked
        }
        self.registry.makeCounter(descriptor: descriptor, labels: [("target", target)]).increment()
    }

    /// Sets a target's outbox gauges from the ledger's totals (every instance sharing the ledger sees them all).
    func setOutbox(_ totals: LedgerOutboxTotals, nowMilliseconds: Int64) {
        let labels = [("target", totals.target)]
        self.registry.makeGauge(descriptor: Self.outboxPending, labels: labels).set(Double(totals.pending))
        self.registry.makeGauge(descriptor: Self.outboxParked, labels: labels).set(Double(totals.parked))
        let age = totals.oldestPendingMilliseconds.map { oldest in
            let age = nowMilliseconds.subtractingReportingOverflow(oldest)
            return age.overflow ? 0 : max(0, Double(age.partialValue) / 1000)
        }
        self.registry.makeGauge(descriptor: Self.outboxOldestAge, labels: labels).set(age ?? 0)
    }

    private static var forwardDelivered: MetricNameDescriptor {
        Self.descriptor("notification_forward_delivered", "total", "Notifications a forwarding target acknowledged (2xx), by target.")
    }

    private static var forwardRetried: MetricNameDescriptor {
        Self.descriptor(
            "notification_forward_retried", "total",
            "Forwarding attempts that failed and will be retried (not 2xx, timeout, no connection), by target.")
    }

    private static var forwardParked: MetricNameDescriptor {
        Self.descriptor(
            "notification_forward_parked", "total", "Outbox entries parked: their deadline passed without a delivery, by target.")
    }

    private static var outboxPending: MetricNameDescriptor {
        Self.descriptor("notification_outbox_pending", "entries", "Outbox entries still to send, by target (the whole ledger's).")
    }

    private static var outboxParked: MetricNameDescriptor {
        Self.descriptor("notification_outbox_parked", "entries", "Outbox entries parked, by target (the whole ledger's).")
    }

    private static var outboxOldestAge: MetricNameDescriptor {
        Self.descriptor(
            "notification_outbox_oldest_pending_age", "seconds",
            "Seconds since the oldest pending outbox entry was written, by target (0 with none).")
    }
}
