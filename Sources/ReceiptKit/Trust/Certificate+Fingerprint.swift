import Crypto
import SwiftASN1
import X509

extension Certificate {
    /// SHA-256 of the certificate's DER encoding, or an empty array when it cannot be serialised.
    var sha256Fingerprint: [UInt8] {
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(self)) != nil else { return [] }
        return Array(SHA256.hash(data: serializer.serializedBytes))
    }
}
