public import X509
import _ReceiptKitShared

/// Reads certificates for chains, anchors and pins.
public enum ServerTrustCertificates {
    /// The certificates in DER or PEM data (PEM may hold several, leaf first for a chain).
    /// - Throws: ``ServerTrustError`` with ``ServerTrustError/Code/malformedCertificate``.
    public static func parse(_ bytes: [UInt8]) throws(ServerTrustError) -> [Certificate] {
        switch CertificateInput.certificates(fromDEROrPEM: bytes) {
        case .success(let certificates): return certificates
        case .failure(let failure): throw ServerTrustError(.malformedCertificate, failure.description)
        }
    }
}
