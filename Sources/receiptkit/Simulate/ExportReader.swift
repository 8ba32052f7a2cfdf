import AppStorePKI
import ReceiptLedger
import ReceiptService
import _ReceiptKitShared
import struct Foundation.Date

/// Reads the customers `receiptkit simulate export` writes: each customer once, however many of their ids are named.
struct ExportReader: Sendable {
    let ledger: any Ledger
    let environment: AppStoreEnvironment
    let bundleIdentifier: String

    /// The customers `ids` name (or every one with `all`), at most `limit`, and the ids no customer has.
    func customers(
        ids: [String], all: Bool, limit: Int, progress: (Int) -> Void
    ) async throws(LedgerError) -> (customers: [ExportedCustomer], unknown: [String]) {
        var customers: [ExportedCustomer] = []
        var unknown: [String] = []
        var seen = Set<String>()
        func read(_ id: String) async throws(LedgerError) {
            guard !seen.contains(id), customers.count < limit else { return }
            guard
                let customer = try await self.ledger.customer(
                    environment: self.environment, bundleIdentifier: self.bundleIdentifier, transactionIdentifier: id)
            else {
                unknown.append(id)
                return
            }
            let originals = customer.originalTransactionIdentifiers
            seen.formUnion(originals)
            seen.insert(id)
            let query = LedgerQuery(environment: self.environment, bundleIdentifier: self.bundleIdentifier, originalTransactionIdentifiers: originals)
            let snapshot = try await self.ledger.snapshot(matching: query)
            let notes = try await self.ledger.notifications(
                environment: self.environment, bundleIdentifier: self.bundleIdentifier,
                originalTransactionIdentifiers: originals, limit: 100_000)
            customers.append(
                ExportedCustomer(
                    originalTransactionIdentifiers: originals, transactions: snapshot.transactions,
                    signedTransactions: Dictionary(
                        customer.transactions.compactMap { stored in stored.signed.signedJWS.map { (stored.transactionIdentifier, $0) } },
                        uniquingKeysWith: { first, _ in first }),
                    renewalInfo: snapshot.renewalInfo, notifications: notes.reversed(), states: [:]))
            progress(customers.count)
        }
        if all {
            var after: String?
            while customers.count < limit {
                let page = try await self.ledger.originalTransactionIdentifiers(
                    environment: self.environment, bundleIdentifier: self.bundleIdentifier, after: after, limit: 500)
                guard let last = page.last else { break }
                for id in page { try await read(id) }
                after = last
            }
        } else {
            for id in ids { try await read(id) }
        }
        return (customers, unknown)
    }

    /// Each subscription's entitlement state by the ledger's own statuses at `moment` (Apple's 1–5 in the
    /// entitlement vocabulary; a revoked subscription of one's own is a refund).
    func states(of customer: ExportedCustomer, at moment: Date) async -> [String: String] {
        guard let id = customer.originalTransactionIdentifiers.first else { return [:] }
        let answer = await SubscriptionReport.statuses(
            environment: self.environment, bundleIdentifier: self.bundleIdentifier, transactionID: id, in: self.ledger,
            now: { moment })
        guard answer.status == 200, case .object(let body)? = try? JSONParser.parse(answer.body, maximumDepth: 16),
            case .array(let groups)? = body["data"]
        else { return [:] }
        let names: [Int64: String] = [1: "active", 2: "expired", 3: "billing_retry", 4: "grace_period", 5: "refunded"]
        var states: [String: String] = [:]
        for group in groups {
            guard case .array(let last)? = group.objectValue?["lastTransactions"] else { continue }
            for entry in last {
                guard let object = entry.objectValue, let original = object["originalTransactionId"]?.stringValue,
                    let status = object["status"]?.numberValue?.int64, let state = names[status]
                else { continue }
                states[original] = state
            }
        }
        return states
    }
}
