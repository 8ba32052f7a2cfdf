import NIOConcurrencyHelpers

/// Whether the main listener accepts connections yet: the probes' own listener (`metrics_listen`) runs beside the
/// server and may answer first, while the ledger is still being migrated — its `GET /health` says `starting`
/// (503) until then, so a load balancer sends nothing to an instance that cannot answer.
final class ServerReadiness: Sendable {
    private let ready = NIOLockedValueBox(false)

    /// The main listener is bound.
    func markReady() { self.ready.withLockedValue { $0 = true } }

    var isReady: Bool { self.ready.withLockedValue { $0 } }
}
