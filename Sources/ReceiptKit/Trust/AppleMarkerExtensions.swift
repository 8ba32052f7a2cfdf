import SwiftASN1
import X509

/// Apple's marker extensions, which say what a certificate under Apple's root may be used for.
///
/// Apple's root and WWDR intermediate sign many kinds of developer and Apple certificates. Without these checks any
/// certificate issued under WWDR — including one a developer can obtain — could sign a receipt that chains to
/// Apple's root. ReceiptKit requires, for every chain that does not end at the Xcode StoreKit certificate:
/// - the signer (leaf) carries the receipt-signing marker `1.2.840.113635.100.6.11.1`;
/// - every intermediate carries the WWDR marker `1.2.840.113635.100.6.2.1`.
enum AppleMarkerExtensions {
    static let receiptSigning: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    static let wwdrIntermediate: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]

    static func has(_ oid: ASN1ObjectIdentifier, _ certificate: Certificate) -> Bool {
        certificate.extensions.contains { $0.oid == oid }
    }

    /// The marker rules for a path, leaf first. A one-certificate path — a self-signed signer that is itself an
    /// anchor, like Xcode's StoreKit certificate — has no issuer whose marker could be required.
    static func verdict(_ path: [Certificate]) -> ChainOutcome.MarkerVerdict {
        guard path.count >= 2, let leaf = path.first else { return .satisfied }
        guard Self.has(Self.receiptSigning, leaf) else { return .leafNotReceiptSigning }
        for intermediate in path.dropFirst().dropLast() where !Self.has(Self.wwdrIntermediate, intermediate) {
            return .intermediateNotWWDR
        }
        return .satisfied
    }
}
