/// What taught the ledger a row: a receipt posted to the service, a server notification, or the App Store Server
/// API. Stored with each transaction and renewal information row (`source`).
///
/// A struct with static members rather than an enum, so a new source does not break anyone's `switch`.
public struct LedgerSource: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    /// Creates a source from its stored spelling.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A validated receipt (``LedgerReceipt``).
    public static let receipt = LedgerSource(rawValue: "receipt")
    /// A verified App Store Server Notification (``LedgerNotification``).
    public static let notification = LedgerSource(rawValue: "notification")
    /// Signed data fetched from the App Store Server API (a ``LedgerUpdate`` with a ``LedgerUpdate/refresh``).
    public static let api = LedgerSource(rawValue: "api")

    public var description: String { self.rawValue }
}
