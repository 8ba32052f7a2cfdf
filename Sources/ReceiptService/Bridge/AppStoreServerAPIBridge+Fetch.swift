import AppStoreJWS
import AppStoreServerAPI
import ReceiptKit
import ReceiptLedger
import _ReceiptKitShared

extension AppStoreServerAPIBridge {
    /// One refresh of a customer: the transaction history named by `key`'s original transaction id (every page)
    /// and, when it holds an auto-renewable subscription, the subscription statuses, each signed value verified by
    /// the client, written to the ledger with the refresh time of every original transaction id it covers — the
    /// key's and those in the history (Apple's answer is the whole customer's; an id of the receipt that it does
    /// not hold stays due, and leads the next refresh: one lead per fetch, so a receipt of many ids Apple does not
    /// know costs a call per request, never a burst). The history is written even when the statuses call fails;
    /// the refresh time is then not recorded, so the ids stay due. Only Apple's answer that it has no such
    /// transaction (its codes for an unknown or invalid id) is recorded as a refresh that found nothing, so it is
    /// not asked for again before the refresh interval; any other error writes nothing.
    /// - Returns: Whether the ledger was written, and whether the refresh was complete (its time recorded).
    func fetch(_ key: RefreshKey) async -> RefreshEnd {
        guard let client = self.clients[key.environment]?[key.bundleIdentifier] else { return .nothingWritten }
        let id = key.originalTransactionIdentifier
        let history: [SignedValue<JWSTransactionPayload>]
        do throws(AppStoreServerAPIError) {
            history = try await self.counted(.transactionHistory, key) { () throws(AppStoreServerAPIError) in
                try await client.transactionHistorySigned(transactionID: id)
            }.transactions
        } catch {
            await self.pause(key, after: error)
            guard Self.findsNothing(error) else { return .nothingWritten }
            let written = await self.write(key, covering: [id], transactions: [], renewalInfo: [], complete: true)
            return RefreshEnd(written: written, complete: true)
        }
        let covered = [id] + history.compactMap { $0.payload.originalTransactionID ?? $0.payload.transactionID }
        var transactions = history.compactMap { self.row($0, key) }
        var renewalInfo: [LedgerRenewalInfo] = []
        var complete = true
        // Any of the customer's subscription transactions names them all to Get All Subscription Statuses.
        if let subscription = history.first(where: {
            $0.payload.type == .autoRenewableSubscription && $0.payload.transactionID != nil
        })?.payload.transactionID
        {
            do throws(AppStoreServerAPIError) {
                let statuses = try await self.counted(.subscriptionStatuses, key) { () throws(AppStoreServerAPIError) in
                    try await client.allSubscriptionStatusesSigned(transactionID: subscription)
                }
                for item in statuses.data.flatMap(\.lastTransactions) {
                    if let transaction = item.transaction.flatMap({ self.row($0, key) }) {
                        transactions.append(transaction)
                    }
                    if let info = item.renewalInfo.flatMap({
                        LedgerRenewalInfo(
                            verified: $0.payload,
                            jws: $0.jws,
                            bundleIdentifier: key.bundleIdentifier,
                            environment: key.environment,
                            source: .api
                        )
                    }) {
                        renewalInfo.append(info)
                    }
                }
            } catch {
                await self.pause(key, after: error)
                complete = false
            }
        }
        let written = await self.write(
            key, covering: covered, transactions: transactions, renewalInfo: renewalInfo, complete: complete)
        return RefreshEnd(written: written, complete: complete)
    }

    /// How a refresh admitted here went, once the instances sharing the ledger had their say.
    enum Coordinated: Sendable {
        /// This instance asked Apple: how the fetch ended.
        case fetched(RefreshEnd)
        /// It asked nothing, for this reason (and, for a backoff, until when).
        case skipped(APIRefreshResult, until: Int64?)
    }

    /// How long another instance waits for a claim whose instance stopped half-way: longer than a fetch may take
    /// (the client's paging limit, two minutes, and its retries).
    static let claimLease: Duration = .seconds(180)

    /// ``fetch(_:)``, claimed first through a ledger several instances share (PostgreSQL): only one of them asks
    /// Apple for a customer at a time, a failure backs the customer off for all, and an app one of them paused is
    /// paused for all. A claim the database cannot take is no reason to keep customers from Apple: the fetch goes
    /// ahead (its writes will fail, and say so, if the database is down).
    func coordinatedFetch(_ key: RefreshKey) async -> Coordinated {
        guard self.ledger.coordinatesAPIRefreshes else { return .fetched(await self.fetch(key)) }
        let claim = LedgerAPIClaim(
            environment: key.environment, bundleIdentifier: key.bundleIdentifier,
            originalTransactionIdentifier: key.originalTransactionIdentifier, holder: self.holder,
            atMilliseconds: self.now().epochMilliseconds,
            leaseMilliseconds: DurationConversion.milliseconds(Self.claimLease))
        let answer = (try? await self.ledger.claimAPIRefresh(claim)) ?? .granted
        switch answer {
        case .granted:
            let end = await self.fetch(key)
            var failedUntil: Int64?
            if end != .complete, !Task.isCancelled {
                let (until, overflow) = self.now().epochMilliseconds.addingReportingOverflow(
                    DurationConversion.milliseconds(self.configuration.failureBackoff))
                failedUntil = overflow ? .max : until
            }
            // Ended on a task of its own: the waiters need not wait for one more round trip, and a fetch that the
            // service's stop cancelled still frees the customer for the other instances (else its lease would keep
            // them answering `elsewhere` for three minutes).
            let ledger = self.ledger
            Task.detached { try? await ledger.endAPIRefresh(claim, failedUntilMilliseconds: failedUntil) }
            return .fetched(end)
        case .heldElsewhere:
            return .skipped(.elsewhere, until: nil)
        case .backingOff(let until):
            return .skipped(.backoff, until: until)
        case .paused(let until):
            self.pauseHere(AppKey(key), until: until)
            return .skipped(.paused, until: nil)
        }
    }

    /// Whether `error` is Apple saying it has no transaction by that id: asking again cannot change the answer.
    static func findsNothing(_ error: AppStoreServerAPIError) -> Bool {
        guard error.code == .apiError, let code = error.apiErrorCode else { return false }
        return [
            APIErrorCode.transactionIDNotFound, .originalTransactionIDNotFound, .invalidTransactionID,
            .invalidOriginalTransactionID,
        ].contains(code)
    }

    /// Writes what a refresh found; with `complete`, the refresh time of `ids` too. Returns whether the ledger took
    /// it.
    private func write(
        _ key: RefreshKey,
        covering ids: [String],
        transactions: [LedgerTransaction],
        renewalInfo: [LedgerRenewalInfo],
        complete: Bool
    ) async -> Bool {
        let query = LedgerQuery(
            environment: key.environment,
            bundleIdentifier: key.bundleIdentifier,
            originalTransactionIdentifiers: ids
        )
        do {
            try await self.ledger.apply(
                LedgerUpdate(
                    source: .api,
                    transactions: transactions,
                    renewalInfo: renewalInfo,
                    refresh: complete ? LedgerRefresh(query, at: self.now()) : nil
                )
            )
            return true
        } catch {
            if error.code != .stringContainsNUL { self.metrics.countLedgerFailure() }
            return false
        }
    }

    /// A verified transaction as a ledger row, keyed by the digest of its JWS as Apple sent it, which the row keeps.
    private func row(_ signed: SignedValue<JWSTransactionPayload>, _ key: RefreshKey) -> LedgerTransaction? {
        LedgerTransaction(verified: signed.payload, jws: signed.jws, environment: key.environment, source: .api)
    }

    /// Runs one API call and counts it in `/metrics` by `endpoint` and outcome.
    private func counted<T>(
        _ endpoint: APICall.Endpoint,
        _ key: RefreshKey,
        _ call: () async throws(AppStoreServerAPIError) -> T
    ) async throws(AppStoreServerAPIError) -> T {
        do {
            let value = try await call()
            self.metrics.countAPICall(endpoint, .success)
            self.note(key, .answering)
            return value
        } catch {
            self.metrics.countAPICall(endpoint, APICall.Outcome(error))
            // Apple saying it has no such transaction answers: the app's key and Apple are fine.
            if let condition = APIAppCondition(error) {
                self.note(key, condition)
            } else if error.code == .apiError {
                self.note(key, .answering)
            }
            throw error
        }
    }
}
