public import AppStorePKI
import Crypto
public import struct Foundation.Date
public import ReceiptKit
import _ReceiptKitShared

/// A validated receipt ready to be recorded: its bytes, its identity in the ledger (the SHA-256 of those bytes)
/// and the transaction rows it carries.
///
/// Build it only from a receipt that validated: the ledger believes what it is given.
public struct LedgerReceipt: Sendable {
    /// Lowercase hex SHA-256 of ``bytes``: the receipt's key in the ledger.
    public let hash: String
    /// The receipt as it was posted (DER/BER, not base64).
    public let bytes: [UInt8]
    /// The environment it belongs to.
    public let environment: AppStoreEnvironment
    /// Its bundle identifier (empty when absent).
    public let bundleIdentifier: String
    /// Its creation date in milliseconds (0 when absent).
    public let creationMilliseconds: Int64
    /// When the service first saw it, in milliseconds (from the service's injected clock).
    public let seenMilliseconds: Int64
    /// The original transaction ids of its purchases (a purchase without one counts as its own original).
    public let originalTransactionIdentifiers: [String]
    private let receipt: AppReceipt

    /// Prepares `receipt` (decoded from `bytes`) for the ledger. Cheap: the transaction rows, which write each
    /// purchase's JSON, are made only when the receipt is actually written (see ``transactions``).
    public init(_ receipt: AppReceipt, bytes: [UInt8], environment: AppStoreEnvironment, seenAt: Date) {
        self.init(receipt, bytes: bytes, hashed: Self.hash(of: bytes), environment: environment, seenAt: seenAt)
    }

    /// Prepares `receipt` as ``init(_:bytes:environment:seenAt:)`` does, its hash taken from `hashes` when it holds
    /// these bytes.
    package init(_ receipt: AppReceipt, bytes: [UInt8], environment: AppStoreEnvironment, seenAt: Date, hashes: ReceiptHashMemo) {
        self.init(receipt, bytes: bytes, hashed: hashes.hash(of: bytes), environment: environment, seenAt: seenAt)
    }

    /// The ledger key of a receipt's bytes: lowercase hex SHA-256.
    package static func hash(of bytes: [UInt8]) -> String {
        HexDigits.string(SHA256.hash(data: bytes))
    }

    /// Prepares `receipt` as ``init(_:bytes:environment:seenAt:)`` does, with `hash` already taken of `bytes`
    /// (``hash(of:)``): an import hashes a receipt to skip it when recorded, before it validates it.
    package init(_ receipt: AppReceipt, bytes: [UInt8], hash: String, environment: AppStoreEnvironment, seenAt: Date) {
        self.init(receipt, bytes: bytes, hashed: hash, environment: environment, seenAt: seenAt)
    }

    private init(_ receipt: AppReceipt, bytes: [UInt8], hashed hash: String, environment: AppStoreEnvironment, seenAt: Date) {
        self.hash = hash
        self.bytes = bytes
        self.environment = environment
        self.bundleIdentifier = receipt.bundleIdentifier ?? ""
        self.creationMilliseconds = receipt.creationDate?.epochMilliseconds ?? 0
        self.seenMilliseconds = seenAt.epochMilliseconds
        self.receipt = receipt
        self.originalTransactionIdentifiers = receipt.inAppPurchases.compactMap { purchase in
            guard let transaction = purchase.transactionIdentifier, !transaction.isEmpty else { return nil }
            return Self.original(of: purchase, transaction: transaction)
        }
    }

    /// The transaction ids of its purchases (without the rows' JSON, which ``transactions`` writes).
    public var transactionIdentifiers: [String] {
        self.receipt.inAppPurchases.compactMap { purchase in
            guard let transaction = purchase.transactionIdentifier, !transaction.isEmpty else { return nil }
            return transaction
        }
    }

    /// One row per purchase with a transaction id; a transaction id repeated inside the receipt keeps its first
    /// occurrence.
    public var transactions: [LedgerTransaction] {
        var seen = Set<String>()
        var rows: [LedgerTransaction] = []
        rows.reserveCapacity(self.receipt.inAppPurchases.count)
        for purchase in self.receipt.inAppPurchases {
            guard let transaction = purchase.transactionIdentifier, !transaction.isEmpty,
                seen.insert(transaction).inserted
            else { continue }
            var json = JSONWriter(capacity: 640)
            purchase.write(to: &json)
            rows.append(
                LedgerTransaction(
                    environment: self.environment,
                    bundleIdentifier: self.bundleIdentifier,
                    transactionIdentifier: transaction,
                    originalTransactionIdentifier: Self.original(of: purchase, transaction: transaction),
                    productIdentifier: purchase.productIdentifier ?? "",
                    purchaseDateMilliseconds: purchase.purchaseDate?.epochMilliseconds,
                    expiresDateMilliseconds: purchase.expiresDate?.epochMilliseconds,
                    cancellationDateMilliseconds: purchase.cancellationDate?.epochMilliseconds,
                    receiptHash: self.hash,
                    receiptCreationMilliseconds: self.creationMilliseconds,
                    json: json.bytes
                )
            )
        }
        return rows
    }

    /// Whether a string the ledger stores as text for it — its app, its purchases' ids and products — holds U+0000,
    /// which PostgreSQL's `text` cannot store (the rows' JSON escapes it).
    var storesNUL: Bool {
        func nul(_ string: String) -> Bool { ByteSearch.containsNUL(string) }
        if nul(self.bundleIdentifier) { return true }
        return self.receipt.inAppPurchases.contains { purchase in
            guard let transaction = purchase.transactionIdentifier, !transaction.isEmpty else { return false }
            return nul(transaction) || nul(Self.original(of: purchase, transaction: transaction))
                || nul(purchase.productIdentifier ?? "")
        }
    }

    private static func original(of purchase: InAppPurchase, transaction: String) -> String {
        purchase.originalTransactionIdentifier.flatMap { $0.isEmpty ? nil : $0 } ?? transaction
    }
}
