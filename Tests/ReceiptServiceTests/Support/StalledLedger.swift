import ReceiptLedger

/// A ledger whose database never answers: every call waits (up to an hour) until it is cancelled, then throws.
struct StalledLedger: Ledger {
    private func stall<T>() async throws(LedgerError) -> T {
        do {
            try await Task.sleep(for: .seconds(3600))
        } catch {
            throw LedgerError(.unavailable, "cancelled while waiting")
        }
        throw LedgerError(.unavailable, "no answer within an hour")
    }

    func migrate() async throws(LedgerError) { try await self.stall() as Void }
    func schemaVersion() async throws(LedgerError) -> Int { try await self.stall() }
    func record(_ receipt: LedgerReceipt) async throws(LedgerError) -> LedgerWriteSummary { try await self.stall() }
    func snapshot(matching query: LedgerQuery) async throws(LedgerError) -> LedgerSnapshot { try await self.stall() }
    func receipt(hash: String) async throws(LedgerError) -> [UInt8]? { try await self.stall() }
    func recordNotification(_ notification: LedgerNotification) async throws(LedgerError) -> Bool {
        try await self.stall()
    }
    func apply(_ update: LedgerUpdate) async throws(LedgerError) { try await self.stall() as Void }
    func ping() async throws(LedgerError) { try await self.stall() as Void }
    func shutdown() async {}
}
