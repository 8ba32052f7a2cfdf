/// A recorded server notification as a customer's timeline lists it
/// (``Ledger/notifications(environment:bundleIdentifier:originalTransactionIdentifiers:limit:)``): what it was, when
/// Apple signed it, when the service received it, and the original transaction it is about.
public struct LedgerNotificationEntry: Sendable, Hashable {
    /// `notificationUUID`.
    public var notificationUUID: String
    /// The original transaction it is about.
    public var originalTransactionIdentifier: String
    /// `notificationType`.
    public var notificationType: String
    /// `subtype`, when present.
    public var subtype: String?
    /// `signedDate`, in milliseconds.
    public var signedMilliseconds: Int64
    /// When the service received it, in milliseconds.
    public var receivedMilliseconds: Int64

    /// Describes a recorded notification.
    public init(
        notificationUUID: String, originalTransactionIdentifier: String, notificationType: String, subtype: String?,
        signedMilliseconds: Int64, receivedMilliseconds: Int64
    ) {
        self.notificationUUID = notificationUUID
        self.originalTransactionIdentifier = originalTransactionIdentifier
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedMilliseconds = signedMilliseconds
        self.receivedMilliseconds = receivedMilliseconds
    }
}
