public import Foundation
public import X509
import Crypto
import _ReceiptKitShared

/// A pin on a certificate's public key: a digest of its raw `SubjectPublicKeyInfo` bytes, as HPKP, OkHttp and
/// TrustKit define it, optionally with an expiry date after which it no longer counts.
///
/// Written `sha256/<base64>` (also `sha384/…`, `sha512/…`) or as hex digits of the digest.
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The digest algorithm.
    public struct Algorithm: Sendable, Hashable, CustomStringConvertible {
        let name: String
        let length: Int
        public static let sha256 = Algorithm(name: "sha256", length: 32)
        public static let sha384 = Algorithm(name: "sha384", length: 48)
        public static let sha512 = Algorithm(name: "sha512", length: 64)
        public var description: String { self.name }

        func digest(_ bytes: some DataProtocol) -> [UInt8] {
            switch self.length {
            case 48: return Array(SHA384.hash(data: bytes))
            case 64: return Array(SHA512.hash(data: bytes))
            default: return Array(SHA256.hash(data: bytes))
            }
        }
    }

    public let algorithm: Algorithm
    /// The digest of the SubjectPublicKeyInfo DER.
    public let digest: [UInt8]
    /// After this instant the pin no longer matches anything.
    public var expires: Date?

    /// Creates a pin from a digest.
    public init(algorithm: Algorithm = .sha256, digest: [UInt8], expires: Date? = nil) {
        self.algorithm = algorithm
        self.digest = digest
        self.expires = expires
    }

    /// Parses `sha256/<base64>`, `sha384/<base64>`, `sha512/<base64>`, or hex (its length picks the algorithm).
    /// - Throws: ``ServerTrustError`` with ``ServerTrustError/Code/malformedPin``.
    public init(_ text: String, expires: Date? = nil) throws(ServerTrustError) {
        for algorithm in [Algorithm.sha256, .sha384, .sha512] where text.hasPrefix(algorithm.name + "/") {
            guard let digest = Base64Decoder.bytes(of: String(text.dropFirst(algorithm.name.count + 1))),
                digest.count == algorithm.length
            else {
                throw ServerTrustError(.malformedPin, "'\(text)' is not \(algorithm.name)/ followed by base64 of \(algorithm.length) bytes")
            }
            self.init(algorithm: algorithm, digest: digest, expires: expires)
            return
        }
        let hex = text.filter { $0 != ":" }
        guard let bytes = HexDigits.bytes(hex),
            let algorithm = [Algorithm.sha256, .sha384, .sha512].first(where: { $0.length == bytes.count })
        else {
            throw ServerTrustError(.malformedPin, "'\(text)' is neither sha256/<base64> nor a hex digest")
        }
        self.init(algorithm: algorithm, digest: bytes, expires: expires)
    }

    /// The pin of a certificate's public key: the digest of its SubjectPublicKeyInfo bytes exactly as they appear
    /// in the certificate's DER. `nil` only if those bytes cannot be located (a certificate swift-certificates
    /// parsed always has them).
    public init?(publicKeyOf certificate: Certificate, algorithm: Algorithm = .sha256) {
        guard let spki = certificate.rawSubjectPublicKeyInfo else { return nil }
        self.init(algorithm: algorithm, digest: algorithm.digest(spki))
    }

    /// `sha256/<base64>`.
    public var description: String {
        "\(self.algorithm.name)/\(Data(self.digest).base64EncodedString())"
    }

    func isActive(at time: Date) -> Bool {
        self.expires.map { time <= $0 } ?? true
    }

    func matches(_ certificate: Certificate) -> Bool {
        guard let spki = certificate.rawSubjectPublicKeyInfo else { return false }
        return ConstantTime.equals(self.algorithm.digest(spki), self.digest)
    }
}
