public import _ReceiptKitShared
public import AppStorePKI

/// Why a well-formed receipt is not valid: a stable snake_case reason code.
///
/// A struct with static members, not an enum, so new reasons can be added without breaking callers' `switch`es.
/// Compare with `==` against the static members, or use ``code`` in logs and JSON.
public struct ReceiptValidationFailure: ReasonCode {
    public let code: String
    public init(reasonCode code: String) { self.code = code }
    init(_ code: String) { self.code = code }

    /// The content signature does not verify with the signer's key, the digest algorithms are unsupported or
    /// inconsistent, or the signer's certificate is missing.
    public static let signatureInvalid = ReceiptValidationFailure("signature_invalid")
    /// No path from the signer's certificate to a trusted anchor (Apple's pinned root or a caller's anchor) exists.
    public static let certificateUntrusted = ReceiptValidationFailure("certificate_untrusted")
    /// A trusted path exists, but one of its certificates is outside its validity window at the validation time.
    public static let certificateExpired = ReceiptValidationFailure("certificate_expired")
    /// The signer's certificate lacks Apple's receipt-signing marker extension (1.2.840.113635.100.6.11.1).
    public static let signerNotReceiptSigning = ReceiptValidationFailure("signer_not_receipt_signing")
    /// The receipt comes from Xcode's StoreKit testing and the policy does not allow such receipts.
    public static let xcodeReceiptNotAllowed = ReceiptValidationFailure("xcode_receipt_not_allowed")
    /// The receipt's bundle identifier differs from the expected one.
    public static let bundleIDMismatch = ReceiptValidationFailure("bundle_id_mismatch")
    /// The receipt's app version differs from the expected one.
    public static let appVersionMismatch = ReceiptValidationFailure("app_version_mismatch")
    /// SHA-1(device identifier ‖ opaque value ‖ bundle id) differs from the receipt's hash (attribute 5).
    public static let deviceHashMismatch = ReceiptValidationFailure("device_hash_mismatch")
    /// The receipt's Volume Purchase Program expiration date (attribute 21) has passed.
    public static let receiptExpired = ReceiptValidationFailure("receipt_expired")

    /// The reason code of a chain failure, as receipts name it.
    public init(_ chain: ChainVerdict.Failure) {
        switch chain {
        case .untrusted, .intermediateLacksMarker: self = .certificateUntrusted
        case .signerLacksMarker: self = .signerNotReceiptSigning
        case .outsideValidity: self = .certificateExpired
        }
    }
}
