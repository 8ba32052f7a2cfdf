/// Which kind of anchor a receipt's validated certificate path ended at.
///
/// The payload's `environment` attribute is written by whoever signed the receipt; the anchor says who that was.
/// A receipt anchored at Xcode's StoreKit certificate is reported as ``ReceiptEnvironment/xcode`` whatever its
/// payload claims (see ``ReceiptValidationResult/environment``).
public struct ReceiptTrustAnchor: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The stable snake_case name, e.g. `apple_root_ca`.
    public let rawValue: String

    init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { self.rawValue }

    /// Apple Inc. Root CA, trusted by its pinned fingerprint (``PinnedCertificates/appleIncRootCA``).
    public static let appleRootCA = ReceiptTrustAnchor("apple_root_ca")
    /// Apple Root CA - G3, trusted by its pinned fingerprint (``PinnedCertificates/appleRootCAG3``): App Store
    /// signed JWS.
    public static let appleRootCAG3 = ReceiptTrustAnchor("apple_root_ca_g3")
    /// Xcode's StoreKit testing certificate (``PinnedCertificates/xcodeStoreKitTesting``), trusted on opt-in only.
    public static let xcodeStoreKitTesting = ReceiptTrustAnchor("xcode_storekit_testing")
    /// A self-signed certificate trusted as itself because the data it signed comes from a local environment (Xcode
    /// or LocalTesting StoreKit) and the policy opted in. Never Apple.
    public static let selfSignedLocal = ReceiptTrustAnchor("self_signed_local")
    /// A certificate the caller supplied in ``ReceiptTrustAnchors`` (a test CA, for example).
    public static let callerAnchor = ReceiptTrustAnchor("caller_anchor")

    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.rawValue)
    }
}
