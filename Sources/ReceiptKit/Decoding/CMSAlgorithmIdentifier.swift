import SwiftASN1

/// ```
/// AlgorithmIdentifier ::= SEQUENCE {
///     algorithm  OBJECT IDENTIFIER,
///     parameters ANY DEFINED BY algorithm OPTIONAL }
/// ```
///
/// Digest and RSA algorithms take either no parameters or NULL; anything else is rejected.
struct CMSAlgorithmIdentifier: BERParseable, Hashable, Sendable {
    var algorithm: ASN1ObjectIdentifier

    init(algorithm: ASN1ObjectIdentifier) {
        self.algorithm = algorithm
    }

    init(derEncoded node: ASN1Node) throws {
        try self.init(berEncoded: node)
    }

    init(berEncoded node: ASN1Node) throws {
        self = try BER.sequence(node, identifier: .sequence) { nodes in
            let algorithm = try ASN1ObjectIdentifier(berEncoded: &nodes)
            if let parameters = nodes.next() {
                _ = try ASN1Null(berEncoded: parameters)
            }
            return CMSAlgorithmIdentifier(algorithm: algorithm)
        }
    }
}
