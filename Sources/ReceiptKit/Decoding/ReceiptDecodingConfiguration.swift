/// Resource limits applied while decoding an untrusted receipt.
///
/// Every limit is checked before the work it bounds, and exceeding one throws a ``ReceiptError`` with its own code.
/// The defaults are far above anything Apple issues (the largest real receipts are well under 1 MiB with a few
/// hundred purchases) and low enough that a hostile input cannot exhaust a server.
public struct ReceiptDecodingConfiguration: Sendable, Hashable {
    /// The largest accepted input in bytes (after base64 decoding). Default 16 MiB.
    public var maximumInputSize: Int
    /// The largest number of in-app purchase records (attribute 17). Default 100,000.
    public var maximumPurchaseCount: Int
    /// The largest number of attributes in the app payload and in each purchase payload. Default 1,000,000.
    public var maximumAttributeCount: Int
    /// The largest number of certificates the container may embed. Apple's receipts carry three (leaf, WWDR,
    /// root) and Xcode's one; more is a malformed container, refused before any certificate is parsed. Default 8.
    public var maximumCertificateCount: Int

    /// Creates a configuration; omitted limits take their defaults.
    public init(
        maximumInputSize: Int = 16 * 1024 * 1024,
        maximumPurchaseCount: Int = 100_000,
        maximumAttributeCount: Int = 1_000_000,
        maximumCertificateCount: Int = 8
    ) {
        self.maximumInputSize = maximumInputSize
        self.maximumPurchaseCount = maximumPurchaseCount
        self.maximumAttributeCount = maximumAttributeCount
        self.maximumCertificateCount = maximumCertificateCount
    }

    /// The default limits.
    public static let `default` = ReceiptDecodingConfiguration()
}
