import struct Foundation.Date
import AppStoreJWS
import _ReceiptKitShared

/// One App Store Server API request before it is sent: method, path on Apple's host, query and JSON body. Each
/// endpoint the client calls is a static member below, on Apple's exact path and method.
struct Endpoint: Sendable, Hashable {
    var method: String
    /// The path, each caller-supplied segment percent-encoded.
    var path: String
    var query: [Query] = []
    var body: JSONValue?
    /// Whether the request may be sent again after it may have reached Apple (a failed connection, a timeout, a
    /// 5xx): `false` for those Apple does not document as idempotent — Request a Test Notification (each is another
    /// notification) and Extend a Subscription Renewal Date. A 429 (Apple acted on nothing) and the 404s Apple
    /// documents as "send again" are retried either way.
    var retriesOnceSent = true

    struct Query: Sendable, Hashable {
        var name: String
        var value: String
    }

    init(_ method: String, _ path: String, query: [(name: String, value: String)] = [], body: JSONValue? = nil) {
        self.method = method
        self.path = path
        self.query = query.map { Query(name: $0.name, value: $0.value) }
        self.body = body
    }

    /// The path and the query, percent-encoded, as appended to the base URL.
    var target: String {
        guard !self.query.isEmpty else { return self.path }
        let items = self.query.map { "\(Self.percentEncoded($0.name))=\(Self.percentEncoded($0.value))" }
        return self.path + "?" + items.joined(separator: "&")
    }

    /// Get Transaction History v2: `GET /inApps/v2/history/{transactionId}`.
    static func transactionHistory(
        _ transactionID: String,
        filter: TransactionHistoryFilter,
        revision: String?
    ) throws(AppStoreServerAPIError) -> Endpoint {
        var query = try filter.queryItems()
        if let revision { query.insert(("revision", revision), at: 0) }
        return Endpoint("GET", "/inApps/v2/history/\(Self.segment(transactionID))", query: query)
    }

    /// Get Transaction Info: `GET /inApps/v1/transactions/{transactionId}`.
    static func transactionInfo(_ transactionID: String) -> Endpoint {
        Endpoint("GET", "/inApps/v1/transactions/\(Self.segment(transactionID))")
    }

    /// Get App Transaction Info: `GET /inApps/v1/transactions/appTransactions/{transactionId}`.
    static func appTransactionInfo(_ transactionID: String) -> Endpoint {
        Endpoint("GET", "/inApps/v1/transactions/appTransactions/\(Self.segment(transactionID))")
    }

    /// Get All Subscription Statuses: `GET /inApps/v1/subscriptions/{transactionId}`, `status` repeated.
    static func allSubscriptionStatuses(_ transactionID: String, status: [SubscriptionStatus]) -> Endpoint {
        Endpoint(
            "GET",
            "/inApps/v1/subscriptions/\(Self.segment(transactionID))",
            query: status.map { ("status", String($0.rawValue)) }
        )
    }

    /// Look Up Order ID: `GET /inApps/v1/lookup/{orderId}`.
    static func lookUpOrderID(_ orderID: String) -> Endpoint {
        Endpoint("GET", "/inApps/v1/lookup/\(Self.segment(orderID))")
    }

    /// Get Refund History v2: `GET /inApps/v2/refund/lookup/{transactionId}`.
    static func refundHistory(_ transactionID: String, revision: String?) -> Endpoint {
        Endpoint(
            "GET",
            "/inApps/v2/refund/lookup/\(Self.segment(transactionID))",
            query: revision.map { [("revision", $0)] } ?? []
        )
    }

    /// Get Notification History: `POST /inApps/v1/notifications/history`, `paginationToken` in the query.
    /// - Throws: ``AppStoreServerAPIError/Code/invalidConfiguration`` for a date out of range.
    static func notificationHistory(
        _ request: NotificationHistoryRequest,
        paginationToken: String?
    ) throws(AppStoreServerAPIError) -> Endpoint {
        Endpoint(
            "POST",
            "/inApps/v1/notifications/history",
            query: paginationToken.map { [("paginationToken", $0)] } ?? [],
            body: try request.json()
        )
    }

    /// Request a Test Notification: `POST /inApps/v1/notifications/test`.
    static let requestTestNotification: Endpoint = {
        var endpoint = Endpoint("POST", "/inApps/v1/notifications/test")
        endpoint.retriesOnceSent = false
        return endpoint
    }()

    /// Get Test Notification Status: `GET /inApps/v1/notifications/test/{testNotificationToken}`.
    static func testNotificationStatus(_ token: String) -> Endpoint {
        Endpoint("GET", "/inApps/v1/notifications/test/\(Self.segment(token))")
    }

    /// Send Consumption Information (V2): `PUT /inApps/v2/transactions/consumption/{transactionId}`.
    static func sendConsumptionInformation(
        _ transactionID: String, _ request: ConsumptionRequest
    ) throws(AppStoreServerAPIError) -> Endpoint {
        Endpoint("PUT", "/inApps/v2/transactions/consumption/\(Self.segment(transactionID))", body: try request.json())
    }

    /// Send Consumption Information V1: `PUT /inApps/v1/transactions/consumption/{transactionId}`.
    static func sendConsumptionInformationV1(_ transactionID: String, _ request: ConsumptionRequestV1) -> Endpoint {
        Endpoint("PUT", "/inApps/v1/transactions/consumption/\(Self.segment(transactionID))", body: request.json)
    }

    /// Extend a Subscription Renewal Date: `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`.
    static func extendSubscriptionRenewalDate(
        _ originalTransactionID: String,
        _ request: ExtendRenewalDateRequest
    ) -> Endpoint {
        var endpoint = Endpoint(
            "PUT", "/inApps/v1/subscriptions/extend/\(Self.segment(originalTransactionID))", body: request.json)
        endpoint.retriesOnceSent = false
        return endpoint
    }

    /// Set App Account Token: `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`.
    static func setAppAccountToken(_ originalTransactionID: String, appAccountToken: String) -> Endpoint {
        Endpoint(
            "PUT",
            "/inApps/v1/transactions/\(Self.segment(originalTransactionID))/appAccountToken",
            body: .object(["appAccountToken": .string(appAccountToken)])
        )
    }

    /// A caller-supplied path segment: percent-encoded so `/`, `?`, `#` and `..` stay inside it.
    static func segment(_ value: String) -> String {
        let encoded = Self.percentEncoded(value)
        return encoded == "." || encoded == ".." ? encoded.replacingDots : encoded
    }

    /// RFC 3986 §2.3: everything but the unreserved characters, percent-encoded as UTF-8.
    static func percentEncoded(_ value: String) -> String {
        PercentEncoding.unreserved(value)
    }

    /// Whole milliseconds since 1970, as Apple's query dates are written; `nil` for an instant out of range.
    static func milliseconds(_ date: Date) -> String? {
        EpochMilliseconds.exactly(date).map { String($0) }
    }
}

extension String {
    /// `.` and `..` with each dot percent-encoded (RFC 3986 §6.2.2.2 keeps `%2E` from being a dot segment).
    fileprivate var replacingDots: String {
        String(repeating: "%2E", count: self.count)
    }
}
