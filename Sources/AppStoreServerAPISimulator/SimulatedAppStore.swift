public import AppStoreServerAPI
public import AppStoreJWS
public import struct Foundation.Date
import NIOConcurrencyHelpers

/// What ``AppStoreServerSimulator`` knows and how it misbehaves: keys, apps, transactions, renewal info, refunds,
/// orders, notifications, scripted faults, and the log of the requests it received. A test changes it while the
/// server runs; every call takes a lock, so it is safe from any task.
///
/// Transactions and renewal info are kept as JWS payloads (`JWSSamplePayload` makes them) and signed when they
/// are answered, with the simulator's clock as `signedDate`, as Apple signs each response anew. A transaction
/// belongs to a customer — by default the family of its `originalTransactionId`, or one the test names — and
/// Get Transaction History, Get Refund History and Get All Subscription Statuses answer with everything of the
/// customer for the token's app, as Apple answers for an App Store account.
public final class SimulatedAppStore: Sendable {
    struct StoredTransaction: Sendable {
        var fields: [String: JSONValue]
        var customer: String
        /// The last change's place in the store's order of changes (history's `revision` counts these).
        var sequence: Int
        /// The place of its refund or revocation in the same order, once revoked.
        var refundSequence: Int?
    }

    struct StoredNotification: Sendable {
        var fields: [String: JSONValue]
        var attempts: [SimulatedSendAttempt]
    }

    struct ScriptedFault: Sendable {
        var fault: SimulatedFault
        var endpoint: SimulatedEndpoint?
        var remaining: Int?
    }

    struct State: Sendable {
        var keys: [String: SimulatedAPIKey] = [:]
        var apps: [String: Int64] = [:]
        var transactions: [String: StoredTransaction] = [:]
        var renewalInfo: [String: [String: JSONValue]] = [:]
        var statusOverrides: [String: Int64] = [:]
        var orders: [String: [String]] = [:]
        var notifications: [StoredNotification] = []
        var testNotifications: [String: StoredNotification] = [:]
        var testNotificationResult = "SUCCESS"
        var consumption: [String: [String: JSONValue]] = [:]
        /// By customer.
        var appTransactions: [String: [String: JSONValue]] = [:]
        var faults: [ScriptedFault] = []
        var requests: [SimulatedRequest] = []
        var requestLogLimit = 1_000
        var counts: [SimulatedEndpoint: Int] = [:]
        var sequence = 0
        var pageSize = 20
        var isDown = false

        mutating func nextSequence() -> Int {
            self.sequence += 1
            return self.sequence
        }
    }

    let state = NIOLockedValueBox(State())

    /// An empty store: no key, no app, no transaction.
    public init() {}

    // MARK: Keys and apps

    /// Accepts tokens signed with `key` from now on (replacing a key of the same id).
    public func register(_ key: SimulatedAPIKey) {
        self.state.withLockedValue { $0.keys[key.keyID] = key }
    }

    /// Refuses tokens of the key with id `keyID` from now on (a key revoked in App Store Connect).
    public func revokeKey(keyID: String) {
        self.state.withLockedValue { _ = $0.keys.removeValue(forKey: keyID) }
    }

    /// Adds an app tokens may name in `bid`, with the Apple ID responses report as `appAppleId`.
    public func addApp(bundleIdentifier: String, appAppleID: Int64) {
        self.state.withLockedValue { $0.apps[bundleIdentifier] = appAppleID }
    }

    // MARK: Purchases

    /// Adds a transaction, or replaces the one with the same `transactionId`.
    /// - Parameters:
    ///   - fields: A transaction payload, as `JWSSamplePayload` makes them.
    ///   - customer: The App Store account it belongs to; its `originalTransactionId` when `nil`.
    /// - Throws: ``SimulatorError`` with ``SimulatorError/Code/incompletePayload`` when `transactionId` or
    ///   `originalTransactionId` is missing.
    public func add(transaction fields: [String: JSONValue], customer: String? = nil) throws(SimulatorError) {
        guard let id = fields["transactionId"]?.stringValue, let original = fields["originalTransactionId"]?.stringValue
        else { throw SimulatorError(.incompletePayload, "a transaction needs transactionId and originalTransactionId") }
        self.state.withLockedValue { state in
            let refunded = fields["revocationDate"] != nil ? state.nextSequence() : nil
            state.transactions[id] = StoredTransaction(
                fields: fields, customer: customer ?? state.transactions[original]?.customer ?? original,
                sequence: state.nextSequence(), refundSequence: refunded)
        }
    }

    /// Sets the renewal info of the subscription its `originalTransactionId` names.
    /// - Throws: ``SimulatorError`` with ``SimulatorError/Code/incompletePayload`` without `originalTransactionId`.
    public func setRenewalInfo(_ fields: [String: JSONValue]) throws(SimulatorError) {
        guard let original = fields["originalTransactionId"]?.stringValue else {
            throw SimulatorError(.incompletePayload, "renewal info needs originalTransactionId")
        }
        self.state.withLockedValue { $0.renewalInfo[original] = fields }
    }

    /// Refunds or revokes a transaction: sets `revocationDate` and `revocationReason` (0 a refund for another
    /// reason, 1 an issue in the app) and moves it to the end of the history's and the refund history's order.
    /// - Returns: Whether the transaction exists.
    @discardableResult
    public func revoke(transactionID: String, at date: Date, reason: Int64 = 0) -> Bool {
        self.state.withLockedValue { state in
            guard var stored = state.transactions[transactionID] else { return false }
            stored.fields["revocationDate"] = .number(AppStoreTimestamp(date).number)
            stored.fields["revocationReason"] = .number(JSONNumber(reason))
            stored.refundSequence = state.nextSequence()
            stored.sequence = state.nextSequence()
            state.transactions[transactionID] = stored
            return true
        }
    }

    /// Fixes the `status` Get All Subscription Statuses reports for a subscription (1 active, 2 expired, 3 billing
    /// retry, 4 grace period, 5 revoked); `nil` to derive it again from the transactions, renewal info and clock.
    public func setStatus(_ status: Int64?, originalTransactionID: String) {
        self.state.withLockedValue { $0.statusOverrides[originalTransactionID] = status }
    }

    /// Sets the `AppTransaction` of a customer (`JWSSamplePayload.appTransaction` makes one): Get App Transaction
    /// Info answers with it, signed, for any of the customer's transaction ids of its app (`bundleId`) and
    /// environment (`receiptType`), or for its `appTransactionId`.
    /// - Parameters:
    ///   - fields: The app transaction payload.
    ///   - customer: The App Store account, as ``add(transaction:customer:)`` names it (by default the
    ///     `originalTransactionId` of the customer's transactions).
    public func setAppTransaction(_ fields: [String: JSONValue], customer: String) {
        self.state.withLockedValue { $0.appTransactions[customer] = fields }
    }

    /// Makes Look Up Order ID find `transactionIDs` under `orderID`.
    public func addOrder(orderID: String, transactionIDs: [String]) {
        self.state.withLockedValue { $0.orders[orderID] = transactionIDs }
    }

    /// The transaction as stored now (after revocations, extensions, app account tokens), unsigned.
    public func transaction(id: String) -> [String: JSONValue]? {
        self.state.withLockedValue { $0.transactions[id]?.fields }
    }

    /// The renewal info stored for a subscription, unsigned.
    public func renewalInfo(originalTransactionID: String) -> [String: JSONValue]? {
        self.state.withLockedValue { $0.renewalInfo[originalTransactionID] }
    }

    /// The body of the last Send Consumption Information request for a transaction.
    public func consumptionInformation(transactionID: String) -> [String: JSONValue]? {
        self.state.withLockedValue { $0.consumption[transactionID] }
    }

    // MARK: Notifications

    /// Adds a notification to the history: a payload (as `JWSSamplePayload` makes them), signed when answered, and
    /// the delivery attempts; it is found by the first attempt's date.
    public func addNotification(_ fields: [String: JSONValue], attempts: [SimulatedSendAttempt]) {
        self.state.withLockedValue { $0.notifications.append(StoredNotification(fields: fields, attempts: attempts)) }
    }

    /// Adds a send attempt to the notification of `notificationUUID` in the history, or adds the notification with
    /// that attempt when the history does not hold it yet.
    func recordAttempt(_ attempt: SimulatedSendAttempt, fields: [String: JSONValue]) {
        let uuid = fields["notificationUUID"]?.stringValue
        self.state.withLockedValue { state in
            if let uuid,
                let index = state.notifications.lastIndex(where: { $0.fields["notificationUUID"]?.stringValue == uuid })
            {
                state.notifications[index].attempts.append(attempt)
            } else {
                state.notifications.append(StoredNotification(fields: fields, attempts: [attempt]))
            }
        }
    }

    /// The `sendAttemptResult` of the test notifications requested from now on (`SUCCESS` by default).
    public var testNotificationResult: String {
        get { self.state.withLockedValue { $0.testNotificationResult } }
        set { self.state.withLockedValue { $0.testNotificationResult = newValue } }
    }

    // MARK: Behaviour

    /// The most records a page of transaction history, refund history or notification history holds (Apple's is
    /// 20, the default); at least 1.
    public var pageSize: Int {
        get { self.state.withLockedValue { $0.pageSize } }
        set { self.state.withLockedValue { $0.pageSize = max(1, newValue) } }
    }

    /// When `true`, every new connection is closed as soon as it is accepted, before any request is read: the
    /// server is down. Requests are not logged meanwhile.
    public var isDown: Bool {
        get { self.state.withLockedValue { $0.isDown } }
        set { self.state.withLockedValue { $0.isDown = newValue } }
    }

    /// Scripts a fault for the next `times` requests to `endpoint` (every endpoint when `nil`; until
    /// ``clearFaults()`` when `times` is `nil`). Faults apply in the order injected; a request meets at most one.
    public func inject(_ fault: SimulatedFault, for endpoint: SimulatedEndpoint? = nil, times: Int? = 1) {
        self.state.withLockedValue { state in
            state.faults.append(ScriptedFault(fault: fault, endpoint: endpoint, remaining: times.map { max(0, $0) }))
        }
    }

    /// Removes every scripted fault.
    public func clearFaults() {
        self.state.withLockedValue { $0.faults.removeAll() }
    }

    /// The fault for the next request to `endpoint`, used up by one.
    func takeFault(for endpoint: SimulatedEndpoint) -> SimulatedFault? {
        self.state.withLockedValue { state in
            guard
                let index = state.faults.firstIndex(where: {
                    ($0.endpoint ?? endpoint) == endpoint && $0.remaining != 0
                })
            else { return nil }
            let fault = state.faults[index].fault
            if let remaining = state.faults[index].remaining {
                state.faults[index].remaining = remaining - 1
                if remaining <= 1 { state.faults.remove(at: index) }
            }
            return fault
        }
    }

    // MARK: Requests seen

    /// The most recent requests received, oldest first (at most ``requestLogLimit``).
    public var requests: [SimulatedRequest] {
        self.state.withLockedValue { $0.requests }
    }

    /// How many requests ``requests`` keeps; older ones are dropped (counts are kept apart and never dropped).
    /// 1,000 by default; at least 1.
    public var requestLogLimit: Int {
        get { self.state.withLockedValue { $0.requestLogLimit } }
        set {
            self.state.withLockedValue { state in
                state.requestLogLimit = max(1, newValue)
                if state.requests.count > state.requestLogLimit {
                    state.requests.removeFirst(state.requests.count - state.requestLogLimit)
                }
            }
        }
    }

    /// How many requests `endpoint` received since the start or ``resetRequests()`` (refused ones included).
    public func requestCount(_ endpoint: SimulatedEndpoint) -> Int {
        self.state.withLockedValue { $0.counts[endpoint] ?? 0 }
    }

    /// Forgets the requests received so far, and their counts.
    public func resetRequests() {
        self.state.withLockedValue { state in
            state.requests.removeAll()
            state.counts.removeAll()
        }
    }

    func log(_ request: SimulatedRequest) {
        self.state.withLockedValue { state in
            state.counts[request.endpoint, default: 0] += 1
            state.requests.append(request)
            if state.requests.count > state.requestLogLimit { state.requests.removeFirst() }
        }
    }
}
