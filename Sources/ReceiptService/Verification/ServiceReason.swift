public import _ReceiptKitShared

/// Why the service answered anything but a success: a stable snake_case reason code, sent in the body's `reasons`
/// and logged.
///
/// The service's own reasons are the static members; the libraries' codes it passes on (a request's parse failure,
/// ReceiptKit's decoding errors and validation failures, AppStoreJWS's decoding errors and verification failures,
/// nested data's `transaction.…` and `renewal_info.…` reasons) are carried as they are, each through an
/// `init(_:)` that takes its code. A struct with static members, not an enum, so new reasons can be added without
/// breaking callers' `switch`es.
public struct ServiceReason: ReasonCode {
    public let code: String
    public init(reasonCode code: String) { self.code = code }

    /// A library's reason code, as it is.
    public init(_ reason: some ReasonCode) { self.code = reason.code }

    /// A library's error code, as it is (a receipt or JWS that does not decode).
    public init(_ code: some ErrorCode) { self.code = code.rawValue }

    init(_ code: String) { self.code = code }

    // MARK: verifyReceipt

    /// A receipt of the sandbox (or of Xcode) posted to the production endpoint (21007).
    public static let sandboxReceipt = ServiceReason("sandbox_receipt")
    /// A production receipt posted to the sandbox endpoint (21008).
    public static let productionReceipt = ServiceReason("production_receipt")
    /// The shared secret sent is not the one configured for the receipt's app (21004).
    public static let sharedSecretMismatch = ServiceReason("shared_secret_mismatch")

    // MARK: Both

    /// The app (the receipt's or the notification's bundle id) is not on the allow list (21010, `rejected`).
    public static let bundleIDNotAllowed = ServiceReason("bundle_id_not_allowed")
    /// The request was not answered within the request timeout, or never got a validation slot (retryable).
    public static let timeout = ServiceReason("timeout")
    /// A string to be stored holds U+0000: no backend can keep it, so the input is refused, not retried.
    public static let stringContainsNUL = ServiceReason("string_contains_nul")
    /// The ledger could not be reached (retryable).
    public static let ledgerUnavailable = ServiceReason("ledger_unavailable")
    /// The ledger failed in a way a retry does not mend.
    public static let ledgerError = ServiceReason("ledger_error")

    /// The in-flight body budget could not cover the request: answered 503 before its body was read (retryable).
    public static let bodyBudgetExhausted = ServiceReason("body_budget_exhausted")

    // MARK: Signed data

    /// `POST /jws/verify?kind=` names no kind this service knows.
    public static let unknownPayloadKind = ServiceReason("unknown_payload_kind")
    /// A notification body whose payload's fields name another kind, or none.
    public static let notANotification = ServiceReason("not_a_notification")
    /// A notification without `notificationUUID`.
    public static let notificationUUIDMissing = ServiceReason("notification_uuid_missing")
    /// A notification without `signedDate`.
    public static let signedDateMissing = ServiceReason("signed_date_missing")
    /// A notification signed longer ago than ``NotificationConfiguration/maximumAge``.
    public static let notificationTooOld = ServiceReason("notification_too_old")
    /// A notification signed further ahead than ``NotificationConfiguration/maximumClockSkew``.
    public static let notificationSignedInFuture = ServiceReason("notification_signed_in_future")
    /// A notification Get Notification History returned for one app and environment that names another.
    public static let notificationOfAnotherApp = ServiceReason("notification_of_another_app")
    /// A notification of an environment this version does not keep.
    public static let environmentUnknown = ServiceReason("environment_unknown")
    /// A notification's transaction belongs to another app.
    public static let transactionBundleIDMismatch = ServiceReason("transaction.bundle_id_mismatch")
    /// A notification's transaction belongs to another environment.
    public static let transactionEnvironmentMismatch = ServiceReason("transaction.environment_mismatch")
    /// A notification's renewal info belongs to another environment.
    public static let renewalInfoEnvironmentMismatch = ServiceReason("renewal_info.environment_mismatch")

    /// An entitlements or signing request names a parameter the endpoint does not take.
    public static let unknownParameter = ServiceReason("unknown_parameter")
    /// An entitlements or signing request lacks a parameter it needs.
    public static let missingParameter = ServiceReason("missing_parameter")
    /// An entitlements or signing request gives a parameter twice, or a value not as documented.
    public static let invalidParameter = ServiceReason("invalid_parameter")
    /// No admin token, or not one of those configured.
    public static let adminTokenRefused = ServiceReason("admin_token_refused")
    /// The ledger knows no such customer of the app in the environment.
    public static let customerNotFound = ServiceReason("customer_not_found")
    /// A signing request names an app with no private key configured (`app_store_server_api`).
    public static let appKeyNotConfigured = ServiceReason("app_key_not_configured")
    /// A signing request's body is not a JSON object.
    public static let malformedBody = ServiceReason("malformed_body")
}
