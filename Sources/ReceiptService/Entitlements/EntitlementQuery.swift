public import AppStorePKI
public import struct Foundation.Date
import _ReceiptKitShared

/// What an entitlements request asks: the app, the environment, one customer key and the moment.
public struct EntitlementQuery: Sendable, Hashable {
    /// How the customer is named.
    public enum Customer: Sendable, Hashable {
        /// The UUID the app set at purchase (`appAccountToken`): signed data carries it, receipts do not.
        case appAccountToken(String)
        /// Any original transaction id of the customer.
        case originalTransactionID(String)
        /// Any transaction id of the customer.
        case transactionID(String)
    }

    public var bundleIdentifier: String
    public var environment: AppStoreEnvironment
    public var customer: Customer
    /// The moment asked about; `nil`: now (the service's clock).
    public var moment: Date?

    public init(bundleIdentifier: String, environment: AppStoreEnvironment, customer: Customer, moment: Date? = nil) {
        self.bundleIdentifier = bundleIdentifier
        self.environment = environment
        self.customer = customer
        self.moment = moment
    }

    /// The parameters a request may give.
    static let parameters: Set<String> = [
        "bundle_id", "environment", "app_account_token", "original_transaction_id", "transaction_id", "at",
    ]

    /// Reads a request's query: `bundle_id` and `environment` (`Production`, `Sandbox` or `Xcode`), exactly one of
    /// `app_account_token` (a UUID), `original_transaction_id` and `transaction_id` (1 to 64 digits), and `at`
    /// (RFC 3339), each at most once; any other parameter is refused, so that a misspelt one is not ignored.
    init(query: [String: [String]]) throws(EntitlementRefusal) {
        if let unknown = query.keys.sorted().first(where: { !Self.parameters.contains($0) }) {
            throw EntitlementRefusal(.malformed, .unknownParameter, "unknown parameter \(unknown)")
        }
        func single(_ name: String) throws(EntitlementRefusal) -> String? {
            guard let values = query[name] else { return nil }
            guard values.count == 1, let value = values.first else {
                throw EntitlementRefusal(.malformed, .invalidParameter, "\(name) is given more than once")
            }
            return value
        }
        guard let bundle = try single("bundle_id"), !bundle.isEmpty else {
            throw EntitlementRefusal(.malformed, .missingParameter, "bundle_id is required")
        }
        guard bundle.utf8.count <= 255, !bundle.utf8.contains(where: { $0 < 0x20 }) else {
            throw EntitlementRefusal(.malformed, .invalidParameter, "bundle_id is not a bundle id")
        }
        self.bundleIdentifier = bundle
        switch try single("environment") {
        case nil: throw EntitlementRefusal(.malformed, .missingParameter, "environment is required (Production or Sandbox)")
        case AppStoreEnvironment.production.rawValue?: self.environment = .production
        case AppStoreEnvironment.sandbox.rawValue?: self.environment = .sandbox
        case AppStoreEnvironment.xcode.rawValue?: self.environment = .xcode
        case _?: throw EntitlementRefusal(.malformed, .invalidParameter, "environment is Production, Sandbox or Xcode")
        }
        var keys: [Customer] = []
        if let token = try single("app_account_token") {
            guard Self.isUUID(token) else {
                throw EntitlementRefusal(.malformed, .invalidParameter, "app_account_token is not a UUID")
            }
            keys.append(.appAccountToken(token.lowercased()))
        }
        for (name, make) in [
            ("original_transaction_id", Customer.originalTransactionID), ("transaction_id", Customer.transactionID),
        ] {
            guard let id = try single(name) else { continue }
            guard AppStoreMirror.isTransactionIdentifier(id) else {
                throw EntitlementRefusal(.malformed, .invalidParameter, "\(name) is not 1 to 64 digits")
            }
            keys.append(make(id))
        }
        guard keys.count == 1, let customer = keys.first else {
            throw EntitlementRefusal(
                .malformed, keys.isEmpty ? .missingParameter : .invalidParameter,
                "give exactly one of app_account_token, original_transaction_id and transaction_id")
        }
        self.customer = customer
        if let at = try single("at") {
            guard at.utf8.count <= 64, let moment = RFC3339Format.date(at) else {
                throw EntitlementRefusal(.malformed, .invalidParameter, "at is not an RFC 3339 date and time")
            }
            self.moment = moment
        } else {
            self.moment = nil
        }
    }

    /// 8-4-4-4-12 hexadecimal digits, either case.
    static func isUUID(_ text: String) -> Bool { UUIDText.isUUID(text) }
}
