import AppStoreJWS
import ReceiptLedger
import _ReceiptKitShared

/// One purchase as the entitlement rules read it, from whatever taught the ledger: the `latest_receipt_info` element
/// every row holds (receipts and signed data alike), and, where the ledger kept the JWS of the row's version, what
/// only signed data says (the product's type, the offer's kind, ownership).
struct PurchaseFacts: Sendable {
    var transactionID: String
    var originalTransactionID: String
    var productID: String
    var kind: PurchaseKind
    var subscriptionGroup: String?
    var purchaseMilliseconds: Int64?
    var originalPurchaseMilliseconds: Int64?
    var expiresMilliseconds: Int64?
    /// When the App Store refunded the purchase or revoked it from Family Sharing (`revocationDate`,
    /// `cancellation_date_ms`).
    var revocationMilliseconds: Int64?
    /// `revocationReason` (`cancellation_reason`): 0 other, 1 an issue in the app.
    var revocationReason: RevocationReason?
    var ownership: InAppOwnershipType?
    var offer: PurchaseOffer?
    /// The date of the version the ledger holds (a receipt's creation date, Apple's signing date).
    var versionMilliseconds: Int64
    /// What taught the ledger that version.
    var source: LedgerSource

    /// The purchase a stored row tells (its `latest_receipt_info` element).
    init(_ row: LedgerTransaction) {
        let members = VerifyReceiptMembers(row.json)
        self.transactionID = row.transactionIdentifier
        self.originalTransactionID = row.originalTransactionIdentifier
        self.productID = row.productIdentifier
        self.purchaseMilliseconds = row.purchaseDateMilliseconds
        self.originalPurchaseMilliseconds = members.integer("original_purchase_date_ms")
        self.expiresMilliseconds = row.expiresDateMilliseconds
        self.revocationMilliseconds = row.cancellationDateMilliseconds
        self.revocationReason = members.integer("cancellation_reason").map(RevocationReason.init(rawValue:))
        self.kind = row.expiresDateMilliseconds == nil ? .lasting : .autoRenewable
        self.subscriptionGroup = members.string("subscription_group_identifier")
        self.ownership = members.string("in_app_ownership_type").map(InAppOwnershipType.init(rawValue:))
        if members.string("is_trial_period") == "true" {
            self.offer = PurchaseOffer(kind: "free_trial", identifier: nil)
        } else if members.string("is_in_intro_offer_period") == "true" {
            self.offer = PurchaseOffer(kind: "introductory", identifier: nil)
        } else if let promotional = members.string("promotional_offer_id") {
            self.offer = PurchaseOffer(kind: "promotional", identifier: promotional)
        } else if let code = members.string("offer_code_ref_name") {
            self.offer = PurchaseOffer(kind: "offer_code", identifier: code)
        } else {
            self.offer = nil
        }
        self.versionMilliseconds = row.receiptCreationMilliseconds
        self.source = row.source
    }

    /// The purchase a verified signed transaction tells.
    init(_ payload: JWSTransactionPayload, versionMilliseconds: Int64? = nil, source: LedgerSource = .api) {
        self.transactionID = payload.transactionID ?? ""
        self.originalTransactionID = payload.ledgerOriginalTransactionID ?? ""
        self.productID = payload.productID ?? ""
        self.purchaseMilliseconds = payload.fields.integer("purchaseDate")
        self.originalPurchaseMilliseconds = payload.fields.integer("originalPurchaseDate")
        self.expiresMilliseconds = payload.fields.integer("expiresDate")
        self.revocationMilliseconds = payload.fields.integer("revocationDate")
        self.revocationReason = payload.revocationReason
        self.kind = PurchaseKind(payload.type) ?? (self.expiresMilliseconds == nil ? .lasting : .autoRenewable)
        self.subscriptionGroup = payload.subscriptionGroupIdentifier
        self.ownership = payload.inAppOwnershipType
        self.offer = PurchaseOffer(
            type: payload.offerType, discount: payload.offerDiscountType, identifier: payload.offerIdentifier)
        self.versionMilliseconds = versionMilliseconds ?? payload.fields.integer("signedDate") ?? 0
        self.source = source
    }

    /// What only signed data says, from the JWS of this version: the product's type, the offer's kind (a win-back
    /// offer has no receipt key), ownership and subscription group.
    mutating func learn(from payload: JWSTransactionPayload) {
        if let kind = PurchaseKind(payload.type) { self.kind = kind }
        if let group = payload.subscriptionGroupIdentifier { self.subscriptionGroup = group }
        if let ownership = payload.inAppOwnershipType { self.ownership = ownership }
        if let offer = PurchaseOffer(
            type: payload.offerType, discount: payload.offerDiscountType, identifier: payload.offerIdentifier)
        {
            self.offer = offer
        }
    }
}
