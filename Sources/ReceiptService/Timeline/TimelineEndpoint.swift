import AppStoreJWS
import ReceiptLedger
import _ReceiptKitShared

/// `GET /ui/subscriptions` (a search by transaction id, original transaction id or app account token) and
/// `GET /ui/subscriptions/{originalTransactionId}?bundle_id=…&environment=…[&at=…]` (the customer's timeline), behind
/// the operator's admin tokens as HTTP Basic passwords, so that a person can open it in a browser.
///
/// The customer is read as the entitlements endpoint reads one (``EntitlementEndpoint/facts(_:)``: refreshed from the
/// App Store Server API first when due), with the newest ``notificationLimit`` notifications about it.
struct TimelineEndpoint: Sendable {
    /// The reading the page shares with `GET /v1/entitlements`: its ledger, tokens, names and refresh.
    let entitlements: EntitlementEndpoint
    /// The most notifications a page lists.
    static let notificationLimit = 200

    /// The search: the form alone without parameters, else a redirect to the customer's page (303), or the form
    /// again with why not.
    func search(authorization: String?, query: [String: [String]]) async -> TimelineAnswer {
        guard self.entitlements.tokens.admitsBasic(authorization) else { return .unauthorized }
        if query.isEmpty { return .page(.answered, TimelinePage.search(TimelinePage.Search(), message: nil)) }
        var form = TimelinePage.Search()
        if let unknown = query.keys.sorted().first(where: { !["bundle_id", "environment", "q"].contains($0) }) {
            return .page(.malformed, TimelinePage.search(form, message: "unknown parameter \(unknown)"))
        }
        form.bundleIdentifier = query["bundle_id"]?.first ?? ""
        // What a person pastes may come with spaces around it, which the form sends as `+` (an id or a UUID never
        // holds one).
        let typed = query["q"]?.first ?? ""
        let blank: (Character) -> Bool = { $0 == " " || $0 == "+" }
        form.text = String(typed.drop(while: blank).reversed().drop(while: blank).reversed())
        var parameters: [String: [String]] = [:]
        parameters["bundle_id"] = query["bundle_id"]
        parameters["environment"] = query["environment"] ?? [AppStoreEnvironment.production.rawValue]
        form.environment = AppStoreEnvironment(rawValue: parameters["environment"]?.first ?? "")
        // `q` first: what the form names, in its own words.
        guard (query["q"]?.count ?? 0) <= 1 else {
            return .page(.malformed, TimelinePage.search(form, message: "q is given more than once"))
        }
        if EntitlementQuery.isUUID(form.text) {
            parameters["app_account_token"] = [form.text]
        } else if AppStoreMirror.isTransactionIdentifier(form.text) {
            parameters["transaction_id"] = [form.text]
        } else {
            let message =
                form.text.isEmpty
                ? "q is required: a transaction id, an original transaction id or an app account token"
                : "give a transaction id or original transaction id (digits) or an app account token (a UUID)"
            return .page(.malformed, TimelinePage.search(form, message: message))
        }
        let request: EntitlementQuery
        do throws(EntitlementRefusal) {
            request = try EntitlementQuery(query: parameters)
        } catch {
            return .page(error.outcome, TimelinePage.search(form, message: error.message))
        }
        let found: LedgerCustomer?
        do throws(LedgerError) {
            found = try await self.entitlements.customer(request)
        } catch {
            return Self.failed(error, form)
        }
        guard let customer = found else {
            return .page(.notFound, TimelinePage.search(form, message: EntitlementEndpoint.unknownCustomer(request)))
        }
        // The page of the original transaction the id names, else the customer's first.
        let named = customer.transactions.first { $0.transactionIdentifier == form.text }?.signed.originalTransactionIdentifier
        let original = named ?? customer.originalTransactionIdentifiers.first ?? ""
        return .redirect(
            "/ui/subscriptions/\(PercentEncoding.unreserved(original))?bundle_id=\(PercentEncoding.unreserved(request.bundleIdentifier))"
                + "&environment=\(PercentEncoding.unreserved(request.environment.rawValue))")
    }

    /// The customer's page.
    func page(authorization: String?, originalTransactionID: String, query: [String: [String]]) async -> TimelineAnswer {
        guard self.entitlements.tokens.admitsBasic(authorization) else { return .unauthorized }
        var form = TimelinePage.Search()
        form.text = originalTransactionID
        form.bundleIdentifier = query["bundle_id"]?.first ?? ""
        if let unknown = query.keys.sorted().first(where: { !["bundle_id", "environment", "at"].contains($0) }) {
            return .page(.malformed, TimelinePage.search(form, message: "unknown parameter \(unknown)"))
        }
        var parameters = query
        parameters["environment"] = query["environment"] ?? [AppStoreEnvironment.production.rawValue]
        parameters["original_transaction_id"] = [originalTransactionID]
        form.environment = AppStoreEnvironment(rawValue: parameters["environment"]?.first ?? "")
        let request: EntitlementQuery
        do throws(EntitlementRefusal) {
            request = try EntitlementQuery(query: parameters)
        } catch {
            return .page(error.outcome, TimelinePage.search(form, message: error.message))
        }
        do throws(LedgerError) {
            guard let facts = try await self.entitlements.facts(request) else {
                return .page(.notFound, TimelinePage.search(form, message: EntitlementEndpoint.unknownCustomer(request)))
            }
            let notifications = try await self.entitlements.ledger.notifications(
                environment: request.environment, bundleIdentifier: request.bundleIdentifier,
                originalTransactionIdentifiers: facts.customer.originalTransactionIdentifiers, limit: Self.notificationLimit)
            return .page(
                .answered,
                TimelinePage.customer(facts, notifications: notifications, notificationLimit: Self.notificationLimit, search: form))
        } catch {
            return Self.failed(error, form)
        }
    }

    private static func failed(_ error: LedgerError, _ form: TimelinePage.Search) -> TimelineAnswer {
        error.isRetryable
            ? .page(.unavailable, TimelinePage.search(form, message: "the ledger is unavailable; try again"))
            : .page(.failed, TimelinePage.search(form, message: "the ledger failed to answer"))
    }
}
