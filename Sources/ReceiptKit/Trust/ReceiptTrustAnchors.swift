public import X509
import Crypto
import _ReceiptKitShared

/// The certificates a ``ReceiptValidator`` trusts as chain anchors, besides Apple's pinned root.
///
/// Apple's root is always trusted through its pinned fingerprint (``PinnedCertificates/appleIncRootCA``): the copy
/// every receipt carries is used only when its SHA-256 matches. Add anchors for receipts from your own test CA
/// (see `ReceiptKitTesting`) or pass Xcode's `StoreKitTestCertificate.cer` to accept local StoreKit receipts.
public struct ReceiptTrustAnchors: Sendable {
    /// The caller-supplied anchor certificates.
    public let certificates: [Certificate]
    /// Whether Apple's pinned root is trusted (default `true`).
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
            let fingerprint = certificate.sha256Fingerprint
            fingerprints.append(fingerprint)
            hasher.update(data: fingerprint)
        }
        self.fingerprints = fingerprints
        self.identity = Array(hasher.finalize())
    }

    /// Apple's pinned root only.
    public static let apple = ReceiptTrustAnchors()

    /// Parses anchors from DER or PEM data (a PEM file may hold several certificates).
    /// - Throws: ``ReceiptError`` with ``ReceiptError/Code/malformedCertificate`` when nothing parses.
    public static func certificates(fromDEROrPEM bytes: [UInt8]) throws(ReceiptError) -> [Certificate] {
        switch CertificateInput.certificates(fromDEROrPEM: bytes) {
        case .success(let certificates): return certificates
        case .failure(let failure): throw ReceiptError(.malformedCertificate, failure.description)
        }
    }
}
