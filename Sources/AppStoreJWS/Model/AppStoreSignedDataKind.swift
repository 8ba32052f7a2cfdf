/// Which App Store payload a JWS carries, told from its documented fields when the caller does not know.
///
/// Apple's JWS carry no type parameter: a notification names `notificationType`, a transaction `transactionId`,
/// renewal info `autoRenewStatus` or `autoRenewProductId` (and no `transactionId`), an `AppTransaction`
/// `receiptType`, `applicationVersion` or `originalApplicationVersion`. Fields that name none of these — Apple's
/// published test vectors hold only `bundleId`, `environment` and `signedDate` — or name several are ``unknown``:
/// still a JWS to verify, generically (``JWSVerifier/verify(_:kind:now:)``). Detection only picks a decoder; the
/// verifier still checks every field of the kind it picked.
public enum AppStoreSignedDataKind: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case transaction
    case renewalInfo = "renewal_info"
    case appTransaction = "app_transaction"
    case notification
    /// The fields name no kind, or several (a `transactionId` beside an `applicationVersion`, say): a guess would
    /// hold the payload to one kind's rules on the strength of a field anyone can add, so none is made. Verified as
    /// signed data of no particular kind: signature, chain, markers, and each expectation whose field the payload
    /// holds; nothing nested.
    case unknown

    /// The kind the payload's documented fields name: ``unknown`` when they name none, or several.
    public init(detecting fields: [String: JSONValue]) {
        let candidates = Self.allCases.filter { $0.isNamed(by: fields) }
        if candidates.count == 1, let kind = candidates.first {
            self = kind
        } else {
            self = .unknown
        }
    }

    /// Parses a command-line spelling: `transaction`, `renewal-info`, `app-transaction`, `notification` (or the raw
    /// values with underscores). Not `unknown`: that is what a verdict reports when no kind could be told, not a kind
    /// a caller knows.
    public init?(_ name: String) {
        guard let kind = Self(rawValue: String(name.map { $0 == "-" ? "_" : $0 })), kind != .unknown else { return nil }
        self = kind
    }

    public var description: String { self.rawValue }

    private func isNamed(by fields: [String: JSONValue]) -> Bool {
        switch self {
        case .notification:
            return fields["notificationType"] != nil
        case .transaction:
            return fields["notificationType"] == nil && fields["transactionId"] != nil
        case .renewalInfo:
            return fields["transactionId"] == nil && (fields["autoRenewStatus"] != nil || fields["autoRenewProductId"] != nil)
        case .appTransaction:
            return fields["receiptType"] != nil || fields["applicationVersion"] != nil
                || fields["originalApplicationVersion"] != nil
        case .unknown:
            return false
        }
    }
}
