public import AppStorePKI

extension TrustEvaluationTime {
    /// The receipt's creation date (attribute 12); the validation clock's "now" when the receipt has none.
    ///
    /// Apple's receipt-signing certificates live about two years, and every receipt stays signed by the certificate
    /// that was current when it was created: a receipt was valid if its chain was valid when Apple issued it. The
    /// same instant as `TrustEvaluationTime.signingDate`, named for receipts.
    public static var receiptCreationDate: TrustEvaluationTime { .signingDate }
}
