import AppStoreJWS
import AppStorePKI
import AppStoreServerAPI
import ReceiptKit
import ReceiptLedger
import struct Foundation.Date

/// The mirror's customer-wide endpoints: Get All Subscription Statuses, Get Transaction History v2 and Get Refund
/// History v2, answered from the customer the ledger knows the id by (``LedgerCustomer``).
extension AppStoreMirror {
    /// Transactions per page of history, as Apple's.
    static let pageSize = 20

    /// Get All Subscription Statuses, `GET /inApps/v1/subscriptions/{transactionId}`: for each auto-renewable
    /// subscription of the customer, grouped by `subscriptionGroupIdentifier`, its latest transaction, its renewal
    /// information and its status at the time of the request (``MirrorSubscriptionStatus``); `status` (1 to 5,
    /// several allowed) keeps only those.
    func subscriptionStatuses(
        environment: AppStoreEnvironment, caller: MirrorCaller, transactionID: String, query: [String: [String]]
    ) async -> MirrorAnswer {
        await self.answerForCustomer(environment, caller, transactionID) { () throws(MirrorRefusal) in
            var wanted: Set<Int64> = []
            for text in query["status"] ?? [] {
                guard let status = Self.digits(text), (1...5).contains(status) else { throw MirrorRefusal(.invalidStatus) }
                wanted.insert(status)
            }
            return wanted
        } answer: { bundle, customer, wanted throws(MirrorRefusal) in
            let transactions = try Self.signed(customer)
            let now = self.now().epochMilliseconds
            var latest: [String: MirrorTransaction] = [:]
            for transaction in transactions where transaction.payload.type == .autoRenewableSubscription {
                guard let original = transaction.payload.originalTransactionID else { continue }
                if let held = latest[original],
                    (held.purchaseMilliseconds, held.position) > (transaction.purchaseMilliseconds, transaction.position)
                {
                    continue
                }
                latest[original] = transaction
            }
            var groups: [String: [JSONValue]] = [:]
            for original in latest.keys.sorted() {
                guard let transaction = latest[original] else { continue }
                // Apple signs renewal information for every subscription; without it the mirror cannot answer.
                guard let renewalJWS = customer.signedRenewalInfo[original] else {
                    throw MirrorRefusal(.generalInternalRetryable)
                }
                let renewal: JWSRenewalInfoPayload
                do {
                    renewal = try JWSRenewalInfoPayload(fields: try CompactJWS.payload(of: renewalJWS.utf8))
                } catch {
                    throw MirrorRefusal(.generalInternal)
                }
                let status = MirrorSubscriptionStatus.status(
                    transaction: transaction.payload, renewal: renewal, nowMilliseconds: now)
                guard wanted.isEmpty || wanted.contains(status) else { continue }
                groups[transaction.payload.subscriptionGroupIdentifier ?? "", default: []].append(
                    .object([
                        "status": .number(JSONNumber(status)),
                        "originalTransactionId": .string(original),
                        "signedTransactionInfo": .string(transaction.jws),
                        "signedRenewalInfo": .string(renewalJWS),
                    ]))
            }
            var members = Self.appMembers(environment, bundle)
            members["data"] = .array(
                groups.keys.sorted().map { group in
                    .object([
                        "subscriptionGroupIdentifier": .string(group), "lastTransactions": .array(groups[group] ?? []),
                    ])
                })
            return members
        }
    }

    /// Get Transaction History v2, `GET /inApps/v2/history/{transactionId}`: the customer's transactions in the
    /// order the ledger learnt of them (`sort`), filtered (``MirrorHistoryFilter``), at most ``pageSize`` a page;
    /// `revision` continues after the page it came with, and once `hasMore` is false, gets what changed since.
    func transactionHistory(
        environment: AppStoreEnvironment, caller: MirrorCaller, transactionID: String, query: [String: [String]]
    ) async -> MirrorAnswer {
        await self.answerForCustomer(environment, caller, transactionID) { () throws(MirrorRefusal) in
            (try MirrorHistoryFilter(query: query), try Self.revision(query, MirrorRevision.history))
        } answer: { bundle, customer, request throws(MirrorRefusal) in
            let (filter, boundary) = request
            var selected = try Self.signed(customer).filter { transaction in
                guard filter.admits(transaction) else { return false }
                guard let boundary else { return true }
                return filter.descending ? transaction.position < boundary : transaction.position > boundary
            }
            selected.sort { filter.descending ? $0.position > $1.position : $0.position < $1.position }
            let page = selected.prefix(Self.pageSize)
            // With nothing new the revision stays where the client is; a first empty page starts at its end.
            let reached = page.last?.position ?? boundary ?? (filter.descending ? .end : .start)
            var members = Self.appMembers(environment, bundle)
            members["revision"] = .string(MirrorRevision.encode(MirrorRevision.history, reached))
            members["hasMore"] = .bool(selected.count > page.count)
            members["signedTransactions"] = .array(page.map { .string($0.jws) })
            return members
        }
    }

    /// Get Refund History v2, `GET /inApps/v2/refund/lookup/{transactionId}`: the customer's refunded and revoked
    /// transactions in the order the ledger learnt of them (their change numbers: a refund is a change), at most
    /// ``pageSize`` a page; `revision` continues after the page, and a refund learnt later — however early its
    /// `revocationDate` — comes after it.
    func refundHistory(
        environment: AppStoreEnvironment, caller: MirrorCaller, transactionID: String, query: [String: [String]]
    ) async -> MirrorAnswer {
        await self.answerForCustomer(environment, caller, transactionID) { () throws(MirrorRefusal) in
            try Self.revision(query, MirrorRevision.refunds) ?? .start
        } answer: { _, customer, boundary throws(MirrorRefusal) in
            let refunded = try Self.signed(customer)
                .compactMap { transaction -> (MirrorPosition, MirrorTransaction)? in
                    guard transaction.revocationMilliseconds != nil, transaction.position > boundary else { return nil }
                    return (transaction.position, transaction)
                }
                .sorted { $0.0 < $1.0 }
            let page = refunded.prefix(Self.pageSize)
            return [
                "signedTransactions": .array(page.map { .string($0.1.jws) }),
                "revision": .string(MirrorRevision.encode(MirrorRevision.refunds, page.last?.0 ?? boundary)),
                "hasMore": .bool(refunded.count > page.count),
            ]
        }
    }

    /// The token checked, the id and the query checked (`parameters`, before the ledger is asked, as Apple's
    /// checks them), the customer read — and read again after a refresh from the App Store Server API when the app
    /// has one and the customer's data was due —, then `answer`'s members as the 200 answer, or the answer of
    /// whichever refused.
    private func answerForCustomer<Parameters>(
        _ environment: AppStoreEnvironment, _ caller: MirrorCaller, _ transactionID: String,
        parameters: () throws(MirrorRefusal) -> Parameters,
        answer: (String, LedgerCustomer, Parameters) throws(MirrorRefusal) -> [String: JSONValue]
    ) async -> MirrorAnswer {
        let bundle: String
        switch self.admit(environment, caller, transactionID) {
        case .refused(let answer): return answer
        case .admitted(let bundleIdentifier): bundle = bundleIdentifier
        }
        let checked: Parameters
        do throws(MirrorRefusal) {
            checked = try parameters()
        } catch {
            return .error(error.answer)
        }
        var customer: LedgerCustomer
        do throws(LedgerError) {
            guard
                let found = try await self.ledger.customer(
                    environment: environment, bundleIdentifier: bundle, transactionIdentifier: transactionID)
            else { return .error(.transactionIdNotFound) }
            customer = found
            let query = LedgerQuery(
                environment: environment, bundleIdentifier: bundle,
                originalTransactionIdentifiers: customer.originalTransactionIdentifiers)
            let stale = customer.transactions.contains { $0.signed.currentJWS == nil }
            if await self.refresh(query, stale),
                let refreshed = try await self.ledger.customer(
                    environment: environment, bundleIdentifier: bundle, transactionIdentifier: transactionID)
            {
                customer = refreshed
            }
        } catch {
            return .error(error.isRetryable ? .generalInternalRetryable : .generalInternal)
        }
        do throws(MirrorRefusal) {
            return .ok(try answer(bundle, customer, checked))
        } catch {
            return .error(error.answer)
        }
    }

    /// The customer's transactions with the JWS of their current versions. One the ledger holds without — learnt
    /// from a receipt, or its newest version a receipt's — is Apple's retryable internal error for the whole answer,
    /// as for Get Transaction Info: leaving it out would tell the client the customer never bought it.
    static func signed(_ customer: LedgerCustomer) throws(MirrorRefusal) -> [MirrorTransaction] {
        var transactions: [MirrorTransaction] = []
        transactions.reserveCapacity(customer.transactions.count)
        for stored in customer.transactions {
            let transaction: MirrorTransaction?
            do {
                transaction = try MirrorTransaction(stored)
            } catch {
                throw MirrorRefusal(.generalInternal)
            }
            guard let transaction else { throw MirrorRefusal(.generalInternalRetryable) }
            transactions.append(transaction)
        }
        return transactions
    }

    /// The place a request's `revision` names, `nil` without one; a token the mirror did not issue is refused.
    static func revision(_ query: [String: [String]], _ kind: String) throws(MirrorRefusal) -> MirrorPosition? {
        guard let values = query["revision"] else { return nil }
        guard values.count == 1, let token = values.first, let position = MirrorRevision.decode(kind, token) else {
            throw MirrorRefusal(.invalidRequestRevision)
        }
        return position
    }

    /// The members naming the app in Apple's answers (`appAppleId` only where the ledger knows it: not here).
    static func appMembers(_ environment: AppStoreEnvironment, _ bundle: String) -> [String: JSONValue] {
        ["bundleId": .string(bundle), "environment": .string(environment.rawValue)]
    }
}
