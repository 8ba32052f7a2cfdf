public import SwiftASN1

/// The marker extension Apple puts in the certificates it signs a kind of data with: the one parameter that tells a
/// receipt chain from an App Store JWS chain to ``ChainEvaluator/evaluate(_:signer:marker:at:)``.
///
/// A path under Apple's root is trusted only when its signer (leaf) carries the marker and every intermediate
/// carries the WWDR marker (see ``ChainVerdict/Failure/signerLacksMarker``). Apple marks receipt signers and App
/// Store JWS signers with the same extension, `1.2.840.113635.100.6.11.1`; the two markers are named apart so that
/// each verifier states what it expects.
public struct AppleSignerMarker: Sendable, Hashable, CustomStringConvertible {
    /// The extension the signer's certificate must carry.
    public let oid: ASN1ObjectIdentifier
    private let name: String

    /// The marker of App Store receipt signers (`1.2.840.113635.100.6.11.1`).
    public static let receiptSigning = AppleSignerMarker(
        oid: [1, 2, 840, 113_635, 100, 6, 11, 1], name: "receipt_signing"
    )
    /// The marker of App Store JWS signers: StoreKit 2 transactions, renewal info, `AppTransaction` and server
    /// notifications (`1.2.840.113635.100.6.11.1`, as Apple's App Store Server Library checks it).
    public static let appStoreSigning = AppleSignerMarker(
        oid: [1, 2, 840, 113_635, 100, 6, 11, 1], name: "app_store_signing"
    )

    public var description: String { "\(self.name) (\(self.oid))" }
}
