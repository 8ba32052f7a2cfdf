/// What became of one App Store JWS or notification: recorded, verified, refused, or not answerable now.
///
/// The HTTP layer chooses the status code from it (``VerifyReceiptServer``): 200 for `recorded`, `duplicate`,
/// `valid` and `invalid`, 400 `malformed`, 422 `rejected`, 503 `unavailable`.
public struct SignedDataOutcome: Sendable, Hashable, RawRepresentable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The spelling sent as the body's `status`.
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { self.rawValue }

    /// A notification verified and recorded.
    public static let recorded: SignedDataOutcome = "recorded"
    /// A notification whose `notificationUUID` was recorded before: acknowledged, nothing applied.
    public static let duplicate: SignedDataOutcome = "duplicate"
    /// A JWS that verified (`POST /jws/verify`).
    public static let valid: SignedDataOutcome = "valid"
    /// A JWS that failed a check (`POST /jws/verify`): a verdict, not an error.
    public static let invalid: SignedDataOutcome = "invalid"
    /// A notification that failed a check; nothing recorded.
    public static let rejected: SignedDataOutcome = "rejected"
    /// A body that is not a well-formed JWS or notification, or one that is no notification.
    public static let malformed: SignedDataOutcome = "malformed"
    /// Not answerable now (the ledger or an OCSP responder unreachable, the time up, the body budget spent): the
    /// same request may succeed later.
    public static let unavailable: SignedDataOutcome = "unavailable"
}
