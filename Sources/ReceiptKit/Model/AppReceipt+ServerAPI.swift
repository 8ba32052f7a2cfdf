extension AppReceipt {
    /// A transaction identifier of the receipt's customer, to call the App Store Server API with: the last in-app
    /// purchase's transaction identifier (its original one when it has none), or `nil` when the receipt holds no
    /// purchase.
    ///
    /// What Apple's `ReceiptUtility.extractTransactionId(appReceipt:)` is for: a server that still receives app
    /// receipts moves its customers to the App Store Server API, whose endpoints take any transaction identifier of
    /// the customer. Decoding is not validation; to trust the identifier, validate the receipt first
    /// (``ReceiptValidator``) and take it from ``ReceiptValidationResult/receipt``:
    ///
    /// ```swift
    /// let receipt = try AppReceipt(base64Encoded: Array(body.utf8))
    /// if let id = receipt.serverAPITransactionIdentifier {
    ///     let history = try await client.transactionHistory(transactionIdentifier: id)
    /// }
    /// ```
    public var serverAPITransactionIdentifier: String? {
        for purchase in self.inAppPurchases.reversed() {
            if let identifier = purchase.transactionIdentifier ?? purchase.originalTransactionIdentifier, !identifier.isEmpty {
                return identifier
            }
        }
        return nil
    }
}
