public import AppStoreJWS
public import X509
import Crypto
import Foundation
import SwiftASN1

/// Signs App Store–shaped compact JWS with a test key: `{"alg":"ES256","x5c":[…]}` over a JSON payload, raw r ‖ s
/// signature — and, for negative tests, every fault a verifier must catch.
///
/// ```swift
/// let authority = try JWSTestAuthority()
/// let jws = try JWSMinter.sign(["transactionId": .string("1"), "bundleId": .string("com.example.app")],
///                              signer: authority.leaf, chain: authority.chain)
/// ```
public enum JWSMinter {
    /// What to get wrong on purpose.
    public struct Faults: Sendable {
        /// The `alg` written in the header (`ES256` when `nil`; `"none"` etc. for negative tests).
        public var algorithm: String?
        /// Leave `x5c` out of the header.
        public var omitsChain: Bool
        /// Extra header parameters (`jku`, `jwk`, …).
        public var extraHeader: [String: JSONValue]
        /// Write the signature DER-encoded instead of r ‖ s.
        public var derSignature: Bool
        /// Flip a bit of the signature.
        public var corruptsSignature: Bool
        /// Replace the payload after signing (the signature then covers the original).
        public var payloadAfterSigning: [String: JSONValue]?

        public init(
            algorithm: String? = nil,
            omitsChain: Bool = false,
            extraHeader: [String: JSONValue] = [:],
            derSignature: Bool = false,
            corruptsSignature: Bool = false,
            payloadAfterSigning: [String: JSONValue]? = nil
        ) {
            self.algorithm = algorithm
            self.omitsChain = omitsChain
            self.extraHeader = extraHeader
            self.derSignature = derSignature
            self.corruptsSignature = corruptsSignature
            self.payloadAfterSigning = payloadAfterSigning
        }

        /// None.
        public static let none = Faults()
    }

    /// The compact JWS of `payload`, signed by `signer`, carrying `chain` in `x5c`.
    public static func sign(
        _ payload: [String: JSONValue],
        signer: JWSTestAuthority.Identity,
        chain: [Certificate],
        faults: Faults = .none
    ) throws -> String {
        var header: [String: JSONValue] = ["alg": .string(faults.algorithm ?? "ES256")]
        if !faults.omitsChain {
            var encoded: [JSONValue] = []
            for certificate in chain {
                var serializer = DER.Serializer()
                try serializer.serialize(certificate)
                encoded.append(.string(Data(serializer.serializedBytes).base64EncodedString()))
            }
            header["x5c"] = .array(encoded)
        }
        header.merge(faults.extraHeader) { _, new in new }
        let encodedHeader = Base64URL.encode(JSONValue.object(header).serialized)
        let encodedPayload = Base64URL.encode(JSONValue.object(payload).serialized)
        let signingInput = Array("\(encodedHeader).\(encodedPayload)".utf8)
        let signature = try signer.privateKey.signature(for: signingInput)
        var signatureBytes = faults.derSignature ? Array(signature.derRepresentation) : Array(signature.rawRepresentation)
        if faults.corruptsSignature, let last = signatureBytes.indices.last { signatureBytes[last] ^= 0x01 }
        let sentPayload = faults.payloadAfterSigning.map { Base64URL.encode(JSONValue.object($0).serialized) }
        return "\(encodedHeader).\(sentPayload ?? encodedPayload).\(Base64URL.encode(signatureBytes))"
    }
}
