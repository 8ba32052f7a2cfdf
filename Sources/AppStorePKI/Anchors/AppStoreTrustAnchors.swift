public import X509
import Crypto
import _ReceiptKitShared

/// The certificates a verifier (receipts or signed JWS) trusts as chain anchors, besides Apple's pinned roots.
///
/// Apple's roots are trusted through their pinned fingerprints (``PinnedCertificates``): the copy the signed data
/// carries is used only when its SHA-256 matches. Add anchors for data from your own test CA (see
/// `ReceiptKitTesting`) or pass Xcode's `StoreKitTestCertificate.cer` to accept local StoreKit receipts.
public struct AppStoreTrustAnchors: Sendable {
    /// The caller-supplied anchor certificates.
    public let certificates: [Certificate]
    /// Whether Apple's pinned roots are trusted (default `true`).
    public let trustsAppleRoot: Bool
    package let fingerprints: [[UInt8]]
    /// Identifies this anchor set in cache keys.
    let identity: [UInt8]

    /// Creates an anchor set.
    /// - Parameters:
    ///   - certificates: Extra anchors, for example a test root.
    ///   - trustsAppleRoot: Whether Apple's pinned root stays trusted; pass `false` to accept only `certificates`.
    public init(_ certificates: [Certificate] = [], trustsAppleRoot: Bool = true) {
        self.certificates = certificates
        self.trustsAppleRoot = trustsAppleRoot
        var fingerprints: [[UInt8]] = []
        var hasher = SHA256()
        hasher.update(data: [trustsAppleRoot ? 1 : 0])
        for certificate in certificates {
            let fingerprint = CertificateFingerprint.sha256(certificate)
            fingerprints.append(fingerprint)
            hasher.update(data: fingerprint)
        }
        self.fingerprints = fingerprints
        self.identity = Array(hasher.finalize())
    }

    /// Apple's pinned root only.
    public static let apple = AppStoreTrustAnchors()

    /// Parses anchors from DER or PEM data (a PEM file may hold several certificates).
    /// - Throws: ``MalformedCertificateError`` when nothing parses.
    public static func certificates(fromDEROrPEM bytes: [UInt8]) throws(MalformedCertificateError) -> [Certificate] {
        switch CertificateInput.certificates(fromDEROrPEM: bytes) {
        case .success(let certificates): return certificates
        case .failure(let failure): throw MalformedCertificateError(failure.description)
        }
    }
}
