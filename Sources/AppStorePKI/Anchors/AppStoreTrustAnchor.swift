/// Which kind of anchor a validated certificate path (of a receipt or of a signed JWS) ended at.
///
/// The environment a payload claims is written by whoever signed it; the anchor says who that was. ReceiptKit, for
/// example, reports a receipt anchored at Xcode's StoreKit certificate as an Xcode receipt whatever its payload
/// claims.
public struct AppStoreTrustAnchor: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The stable snake_case name, e.g. `apple_root_ca`.
    public let rawValue: String

    init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { self.rawValue }

    /// Apple Inc. Root CA, trusted by its pinned fingerprint (``PinnedCertificates/appleIncRootCA``).
    public static let appleRootCA = AppStoreTrustAnchor("apple_root_ca")
    /// Apple Root CA - G3, trusted by its pinned fingerprint (``PinnedCertificates/appleRootCAG3``): App Store
    /// signed JWS.
    public static let appleRootCAG3 = AppStoreTrustAnchor("apple_root_ca_g3")
    /// Xcode's StoreKit testing certificate (``PinnedCertificates/xcodeStoreKitTesting``), trusted on opt-in only.
    public static let xcodeStoreKitTesting = AppStoreTrustAnchor("xcode_storekit_testing")
    /// A self-signed certificate trusted as itself because the data it signed comes from a local environment (Xcode
    /// or LocalTesting StoreKit) and the policy opted in. Never Apple.
    public static let selfSignedLocal = AppStoreTrustAnchor("self_signed_local")
    /// A certificate the caller supplied in ``AppStoreTrustAnchors`` (a test CA, for example).
    public static let callerAnchor = AppStoreTrustAnchor("caller_anchor")

    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.rawValue)
    }
}
