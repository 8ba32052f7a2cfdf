/// A certificate trusted by its SHA-256 fingerprint when the signed data carries it, and the anchor kind it reports.
///
/// Pass the pinned roots a verifier allows to ``ChainEvaluator/init(anchors:pinnedRoots:cache:)``: receipts are
/// anchored at ``appleIncRootCA`` (and, on opt-in, ``xcodeStoreKitTesting``), App Store signed JWS at
/// ``appleRootCAG3``.
public struct PinnedRoot: Sendable, Hashable {
    /// The SHA-256 fingerprint a carried certificate must have to be trusted as this root.
    public let fingerprint: PinnedCertificates.Fingerprint
    /// What a path ending at this root reports as its anchor.
    public let kind: AppStoreTrustAnchor
    /// Its part in chain-outcome cache keys (a distinct bit for every pinned root).
    let tag: UInt8

    /// Apple Inc. Root CA: App Store receipts.
    public static let appleIncRootCA = PinnedRoot(
        fingerprint: PinnedCertificates.appleIncRootCA, kind: .appleRootCA, tag: 1
    )
    /// Xcode's StoreKit receipt-signing certificate, for receipts signed locally; allow it on opt-in only.
    public static let xcodeStoreKitTesting = PinnedRoot(
        fingerprint: PinnedCertificates.xcodeStoreKitTesting, kind: .xcodeStoreKitTesting, tag: 2
    )
    /// Apple Root CA - G3: App Store signed JWS (StoreKit 2, App Store Server Notifications V2).
    public static let appleRootCAG3 = PinnedRoot(
        fingerprint: PinnedCertificates.appleRootCAG3, kind: .appleRootCAG3, tag: 4
    )
}
