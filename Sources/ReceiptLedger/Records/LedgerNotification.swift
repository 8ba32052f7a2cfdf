public import AppStorePKI
/// A verified App Store Server Notification V2 ready to be recorded, with what it changes: the transaction it
/// carries (a purchase, a renewal, a refund's revocation) and the subscription's renewal information.
///
/// Recording is keyed by ``notificationUUID``: Apple retries a notification until it is acknowledged, and a
/// captured one can be sent again by anybody, so a UUID already recorded is acknowledged without applying anything.
/// Build it only from a notification that verified: the ledger believes what it is given.
public struct LedgerNotification: Sendable, Hashable {
    /// `notificationUUID`: the key.
    public var notificationUUID: String
    /// The environment it came from.
    public var environment: AppStoreEnvironment
    /// `data.bundleId`.
    public var bundleIdentifier: String
    /// `notificationType`.
    public var notificationType: String
    /// `subtype`, when present.
    public var subtype: String?
    /// `signedDate`, in milliseconds.
    public var signedMilliseconds: Int64
    /// When the service received it, in milliseconds (from the service's injected clock).
    public var receivedMilliseconds: Int64
    /// The decoded notification payload as signed (UTF-8 JSON).
    public var payloadJSON: [UInt8]
    /// The transaction row it carries (`data.signedTransactionInfo`), keyed like a receipt's.
    public var transaction: LedgerTransaction?
    /// The renewal information it carries (`data.signedRenewalInfo`).
    public var renewalInfo: LedgerRenewalInfo?
    /// The notification's `signedPayload`, exactly as Apple sent it; `nil` for notifications recorded before the
    /// ledger kept signed values (schema version 7).
    public var signedPayload: String?
    /// Where it is sent on, or `nil` for nowhere: recorded as new, it gives each target an outbox entry in the same
    /// transaction.
    public var forwarding: LedgerForwarding?

    /// Creates a notification record.
    public init(
        notificationUUID: String,
        environment: AppStoreEnvironment,
        bundleIdentifier: String,
        notificationType: String,
        subtype: String?,
        signedMilliseconds: Int64,
        receivedMilliseconds: Int64,
        payloadJSON: [UInt8],
        transaction: LedgerTransaction?,
        renewalInfo: LedgerRenewalInfo?,
        signedPayload: String? = nil,
        forwarding: LedgerForwarding? = nil
    ) {
        self.notificationUUID = notificationUUID
        self.environment = environment
        self.bundleIdentifier = bundleIdentifier
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedMilliseconds = signedMilliseconds
        self.receivedMilliseconds = receivedMilliseconds
        self.payloadJSON = payloadJSON
        self.transaction = transaction
        self.renewalInfo = renewalInfo
        self.signedPayload = signedPayload
        self.forwarding = forwarding
    }
}

extension LedgerNotification {
    /// What the notification teaches the ledger, applied as ``Ledger/apply(_:)`` applies an update from the App
    /// Store Server API: the same statements, tagged ``LedgerSource/notification``.
    public var update: LedgerUpdate {
        LedgerUpdate(
            source: .notification,
            transactions: self.transaction.map { [$0] } ?? [],
            renewalInfo: self.renewalInfo.map { [$0] } ?? []
        )
    }

    /// The original transaction it is about: its transaction's, or its renewal information's.
    public var originalTransactionIdentifier: String? {
        self.transaction?.originalTransactionIdentifier ?? self.renewalInfo?.originalTransactionIdentifier
    }
}
