public import AppStorePKI
/// One in-app purchase transaction as the ledger holds it: the columns it is found and ordered by, and the
/// verifyReceipt `in_app` object of the newest receipt (or signed data) that carried it.
public struct LedgerTransaction: Sendable, Hashable {
    /// The environment the transaction belongs to.
    public var environment: AppStoreEnvironment
    /// The app's bundle identifier (empty when the receipt carried none).
    public var bundleIdentifier: String
    /// `transaction_id`; the ledger keys rows by environment, app and transaction id.
    public var transactionIdentifier: String
    /// `original_transaction_id` (the transaction id itself when the receipt carried none).
    public var originalTransactionIdentifier: String
    /// `product_id` (empty when the receipt carried none).
    public var productIdentifier: String
    /// `purchase_date_ms`, when known.
    public var purchaseDateMilliseconds: Int64?
    /// `expires_date_ms` for subscriptions.
    public var expiresDateMilliseconds: Int64?
    /// `cancellation_date_ms` for refunded or cancelled purchases.
    public var cancellationDateMilliseconds: Int64?
    /// The hash of the newest receipt this transaction was seen in; for a row learnt from signed data, `jws:` and
    /// the SHA-256 of the JWS.
    public var receiptHash: String
    /// That receipt's creation date (or the signed data's `signedDate`) in milliseconds: the newer version wins.
    public var receiptCreationMilliseconds: Int64
    /// The transaction's verifyReceipt JSON object (UTF-8), as that receipt (or signed data) carried it.
    public var json: [UInt8]
    /// What taught the ledger this version of the row.
    public var source: LedgerSource
    /// The compact JWS this version was read from, exactly as Apple signed it (`signedTransactionInfo`); `nil` for a
    /// version a receipt carried, and for rows learnt before the ledger kept signed values (schema version 7). Stored
    /// with the row; rows read back by ``Ledger/snapshot(matching:)`` leave it `nil` (read it with
    /// ``Ledger/signedTransaction(environment:bundleIdentifier:transactionIdentifier:)``).
    public var signedJWS: String?

    /// Creates a transaction row.
    public init(
        environment: AppStoreEnvironment,
        bundleIdentifier: String,
        transactionIdentifier: String,
        originalTransactionIdentifier: String,
        productIdentifier: String,
        purchaseDateMilliseconds: Int64?,
        expiresDateMilliseconds: Int64?,
        cancellationDateMilliseconds: Int64?,
        receiptHash: String,
        receiptCreationMilliseconds: Int64,
        json: [UInt8],
        source: LedgerSource = .receipt,
        signedJWS: String? = nil
    ) {
        self.environment = environment
        self.bundleIdentifier = bundleIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.originalTransactionIdentifier = originalTransactionIdentifier
        self.productIdentifier = productIdentifier
        self.purchaseDateMilliseconds = purchaseDateMilliseconds
        self.expiresDateMilliseconds = expiresDateMilliseconds
        self.cancellationDateMilliseconds = cancellationDateMilliseconds
        self.receiptHash = receiptHash
        self.receiptCreationMilliseconds = receiptCreationMilliseconds
        self.json = json
        self.source = source
        self.signedJWS = signedJWS
    }

    /// Whether this row should replace `stored` (the same transaction from another receipt or signed data): the
    /// newer version wins, ties broken by receipt hash, so the final state does not depend on arrival order — except
    /// that a receipt never clears a refund or revocation Apple signed (a receipt row without a cancellation does not
    /// replace a signed row with one; only signed data, such as REFUND_REVERSED, can). The SQL upsert's condition
    /// says the same (`LedgerPrecedenceTests` holds the two together on every backend).
    func supersedes(_ stored: LedgerTransaction) -> Bool {
        guard (self.receiptCreationMilliseconds, self.receiptHash) > (stored.receiptCreationMilliseconds, stored.receiptHash)
        else { return false }
        return !(self.source == .receipt && self.cancellationDateMilliseconds == nil
            && stored.source != .receipt && stored.cancellationDateMilliseconds != nil)
    }
}

extension LedgerTransaction {
    /// verifyReceipt's `latest_receipt_info` order: newest purchase first (unknown dates last), then the larger
    /// transaction id (numerically when both are digits).
    static func isNewer(_ lhs: LedgerTransaction, _ rhs: LedgerTransaction) -> Bool {
        switch (lhs.purchaseDateMilliseconds, rhs.purchaseDateMilliseconds) {
        case (let l?, let r?) where l != r: return l > r
        case (.some, .none): return true
        case (.none, .some): return false
        default: break
        }
        let l = lhs.transactionIdentifier
        let r = rhs.transactionIdentifier
        if l.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), r.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            l.utf8.count != r.utf8.count
        {
            return l.utf8.count > r.utf8.count
        }
        return l > r
    }
}
