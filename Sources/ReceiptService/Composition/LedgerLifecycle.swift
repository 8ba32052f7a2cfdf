import ReceiptLedger
import ServiceLifecycle

/// Shuts the ledger down with the service: when the service group shuts down gracefully, or is cancelled because
/// the server failed to start. Listed first among the services, it is the last to stop.
struct LedgerLifecycle: Service {
    let ledger: any Ledger

    func run() async {
        try? await gracefulShutdown()  // returns on shutdown, throws on cancellation: either way, close
        // In a task of its own, which the group's cancellation does not reach: a cancelled close would leave the
        // database's connections open.
        let ledger = self.ledger
        await Task { await ledger.shutdown() }.value
    }
}
