import SwiftASN1
import X509

/// Apple's marker extensions, which say what a certificate under Apple's root may be used for.
///
/// Apple's roots and WWDR intermediates sign many kinds of developer and Apple certificates. Without these checks
/// any certificate issued under WWDR — including one a developer can obtain — could sign data that chains to
/// Apple's root. Every chain that does not end at a self-signed anchor of one certificate must have:
/// - a signer (leaf) carrying the signer marker the verifier asks for (``AppleSignerMarker``);
/// - every intermediate carrying the WWDR marker `1.2.840.113635.100.6.2.1`.
enum AppleMarkerExtensions {
    static let wwdrIntermediate: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]

    static func has(_ oid: ASN1ObjectIdentifier, _ certificate: Certificate) -> Bool {
        certificate.extensions.contains { $0.oid == oid }
    }

    /// The marker rules for a path, leaf first. A one-certificate path — a self-signed signer that is itself an
    /// anchor, like Xcode's StoreKit certificate — has no issuer whose marker could be required.
    static func verdict(_ path: [Certificate], signer marker: AppleSignerMarker) -> ChainOutcome.MarkerVerdict {
        guard path.count >= 2, let leaf = path.first else { return .satisfied }
        guard Self.has(marker.oid, leaf) else { return .signerLacksMarker }
        for intermediate in path.dropFirst().dropLast() where !Self.has(Self.wwdrIntermediate, intermediate) {
            return .intermediateLacksMarker
        }
        return .satisfied
    }
}
