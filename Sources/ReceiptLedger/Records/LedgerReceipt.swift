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
    public let environment: LedgerEnvironment
    /// Its bundle identifier (empty when absent).
    public let bundleIdentifier: String
    /// Its creation date in milliseconds (0 when absent).
    public let creationMilliseconds: Int64
    /// When the service first saw it, in milliseconds (from the service's injected clock).
    public let seenMilliseconds: Int64
    /// One row per purchase with a transaction id; a transaction id repeated inside the receipt keeps its first
    /// occurrence.
    public let transactions: [LedgerTransaction]

    /// Prepares `receipt` (decoded from `bytes`) for the ledger.
    public init(_ receipt: AppReceipt, bytes: [UInt8], environment: LedgerEnvironment, seenAt: Date) {
        let hash = HexDigits.string(SHA256.hash(data: bytes))
        let bundle = receipt.bundleIdentifier ?? ""
        let created = receipt.creationDate?.epochMilliseconds ?? 0
        self.hash = hash
        self.bytes = bytes
        self.environment = environment
        self.bundleIdentifier = bundle
        self.creationMilliseconds = created
        self.seenMilliseconds = seenAt.epochMilliseconds

        var seen = Set<String>()
        var rows: [LedgerTransaction] = []
        rows.reserveCapacity(receipt.inAppPurchases.count)
        for purchase in receipt.inAppPurchases {
            guard let transaction = purchase.transactionIdentifier, !transaction.isEmpty,
                seen.insert(transaction).inserted
            else { continue }
            var json = JSONWriter(capacity: 640)
            purchase.write(to: &json)
            let original = purchase.originalTransactionIdentifier.flatMap { $0.isEmpty ? nil : $0 } ?? transaction
            rows.append(
                LedgerTransaction(
                    environment: environment,
                    bundleIdentifier: bundle,
                    transactionIdentifier: transaction,
                    originalTransactionIdentifier: original,
                    productIdentifier: purchase.productIdentifier ?? "",
                    purchaseDateMilliseconds: purchase.purchaseDate?.epochMilliseconds,
                    expiresDateMilliseconds: purchase.expiresDate?.epochMilliseconds,
                    cancellationDateMilliseconds: purchase.cancellationDate?.epochMilliseconds,
                    receiptHash: hash,
                    receiptCreationMilliseconds: created,
                    json: json.bytes
                )
            )
        }
        self.transactions = rows
    }
}
