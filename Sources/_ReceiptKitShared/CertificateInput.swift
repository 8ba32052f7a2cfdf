public import X509
import SwiftASN1

/// Reads certificates given as DER or as PEM (one or several blocks), for the libraries of this package. Each
/// library wraps the failure in its own error type.
public enum CertificateInput {
    /// The certificates `bytes` hold, or a description of why they hold none.
    public static func certificates(fromDEROrPEM bytes: [UInt8]) -> Result<[Certificate], Failure> {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("-----BEGIN") {
            do {
                let certificates = try PEMDocument.parseMultiple(pemString: text)
                    .filter { $0.discriminator == "CERTIFICATE" }
                    .map { try Certificate(pemDocument: $0) }
                guard !certificates.isEmpty else { return .failure(Failure("the PEM data holds no certificate")) }
                return .success(certificates)
            } catch {
                return .failure(Failure("the PEM data does not hold certificates: \(error)"))
            }
        }
        do {
            return .success([try Certificate(derEncoded: bytes)])
        } catch {
            return .failure(Failure("not a DER or PEM certificate: \(error)"))
        }
    }

    /// Why input held no certificate.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
