/// Which of Apple's two hosts a request addressed: `POST /verifyReceipt` answers as production,
/// `POST /sandbox/verifyReceipt` as the sandbox.
public enum VerifyReceiptEndpoint: String, Sendable, Hashable, CaseIterable {
    /// `buy.itunes.apple.com`: production receipts.
    case production
    /// `sandbox.itunes.apple.com`: sandbox receipts (and Xcode receipts, when the service allows them).
    case sandbox
}
