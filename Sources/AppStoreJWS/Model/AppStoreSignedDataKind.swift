/// Which App Store payload a JWS carries, told from its documented fields when the caller does not know.
///
/// Apple's JWS carry no type parameter: a notification names `notificationType`, a transaction `transactionId`,
/// renewal info `autoRenewStatus` or `autoRenewProductId` (and no `transactionId`), an `AppTransaction`
/// `receiptType`, `applicationVersion` or `originalApplicationVersion`. Detection only picks a decoder; the verifier
/// still checks every field of the kind it picked.
public enum AppStoreSignedDataKind: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case transaction
    case renewalInfo = "renewal_info"
    case appTransaction = "app_transaction"
    case notification

    /// The kind the payload's documented fields name.
    /// - Throws: ``JWSError`` with ``JWSError/Code/unknownPayloadKind`` when they name none, or several.
    public init(detecting fields: [String: JSONValue]) throws(JWSError) {
        let candidates = Self.allCases.filter { $0.isNamed(by: fields) }
        guard candidates.count == 1, let kind = candidates.first else {
            throw JWSError(
                .unknownPayloadKind,
                "the payload's fields name no single kind (transaction, renewal info, AppTransaction, notification)"
            )
        }
        self = kind
    }

    /// Parses a command-line spelling: `transaction`, `renewal-info`, `app-transaction`, `notification` (or the raw
    /// values with underscores).
    public init?(_ name: String) {
        guard let kind = Self(rawValue: String(name.map { $0 == "-" ? "_" : $0 })) else { return nil }
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
        }
    }
}
