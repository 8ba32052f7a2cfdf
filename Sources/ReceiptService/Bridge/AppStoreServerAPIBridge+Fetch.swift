import AppStoreJWS
import AppStoreServerAPI
import ReceiptLedger

extension AppStoreServerAPIBridge {
    /// Apple's `type` of an auto-renewable subscription's transactions.
    static let autoRenewableType = "Auto-Renewable Subscription"

    /// One refresh: the transaction history of `key`'s original transaction id (every page) and, for an
    /// auto-renewable subscription, its subscription statuses, each signed value verified by the client, written
    /// to the ledger with the refresh time. An Apple error that asking again cannot change (an unknown
    /// transaction id, say) is recorded as a refresh that found nothing, so it is not asked for again before the
    /// refresh interval.
    /// - Returns: Whether the ledger was written.
    func fetch(_ key: RefreshKey) async -> Bool {
        guard let client = self.clients[key.environment]?[key.bundleIdentifier] else { return false }
        let id = key.originalTransactionIdentifier
        var transactions: [LedgerTransaction] = []
        var renewalInfo: [LedgerRenewalInfo] = []
        do throws(AppStoreServerAPIError) {
            let client = try client.get()
            let history = try await self.counted("transaction_history") { () throws(AppStoreServerAPIError) in
                try await client.transactionHistory(transactionID: id)
            }
            transactions += history.transactions.compactMap { self.row($0, key) }
            let isAutoRenewable = history.transactions.contains { payload in
                (payload.originalTransactionID ?? payload.transactionID) == id
                    && (payload.type == Self.autoRenewableType || payload.expiresDate != nil)
            }
            if isAutoRenewable {
                let statuses = try await self.counted("subscription_statuses") { () throws(AppStoreServerAPIError) in
                    try await client.allSubscriptionStatuses(transactionID: id)
                }
                for item in statuses.data.flatMap(\.lastTransactions) {
                    if let transaction = item.transaction.flatMap({ self.row($0, key) }) {
                        transactions.append(transaction)
                    }
                    if let info = item.renewalInfo.flatMap({
                        JWSLedgerRows.renewalInfo(
                            $0,
                            bundleIdentifier: key.bundleIdentifier,
                            environment: key.environment,
                            source: .api
                        )
                    }) {
                        renewalInfo.append(info)
                    }
                }
            }
        } catch {
            guard error.code == .apiError, !error.isRetryable else { return false }
            transactions = []
            renewalInfo = []
        }
        let query = LedgerQuery(
            environment: key.environment,
            bundleIdentifier: key.bundleIdentifier,
            originalTransactionIdentifiers: [id]
        )
        do {
            try await self.ledger.apply(
                LedgerUpdate(
                    source: .api,
                    transactions: transactions,
                    renewalInfo: renewalInfo,
                    refresh: LedgerRefresh(query, at: self.now())
                )
            )
            return true
        } catch {
            if error.code != .stringContainsNUL { self.metrics.countLedgerFailure() }
            return false
        }
    }

    /// A verified transaction as a ledger row. The client hands back payloads, not their JWS, so the row's key is
    /// the digest of the payload's canonical JSON (names in byte order, numbers as signed).
    private func row(_ payload: JWSTransactionPayload, _ key: RefreshKey) -> LedgerTransaction? {
        JWSLedgerRows.transaction(
            payload,
            jws: String(decoding: JSONValue.object(payload.fields).serialized, as: UTF8.self),
            environment: key.environment,
            source: .api
        )
    }

    /// Runs one API call and counts it in `/metrics` by `endpoint` and outcome.
    private func counted<T>(
        _ endpoint: String,
        _ call: () async throws(AppStoreServerAPIError) -> T
    ) async throws(AppStoreServerAPIError) -> T {
        do {
            let value = try await call()
            self.metrics.countAPICall(endpoint: endpoint, outcome: "success")
            return value
        } catch {
            self.metrics.countAPICall(endpoint: endpoint, outcome: Self.outcome(error))
            throw error
        }
    }

    /// The metric's outcome for a failed call: the error's code, with signed data that is malformed or does not
    /// verify both `untrusted`.
    static func outcome(_ error: AppStoreServerAPIError) -> String {
        switch error.code {
        case .untrustedSignedData, .malformedSignedData: return "untrusted"
        default: return error.code.rawValue
        }
    }
}
