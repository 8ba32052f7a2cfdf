public import Foundation
public import NIOSSL
public import ServerTrust
import NIOCore
import SwiftASN1
import X509

extension ServerTrustEvaluator {
    /// A swift-nio-ssl verification callback that trusts the server's chain only when this evaluator does.
    ///
    /// Install it on a client's `NIOSSLClientHandler(context:serverHostname:customVerificationCallback:)` (and so in
    /// any NIO client, including AsyncHTTPClient set-ups that build their own channel). Leave
    /// `TLSConfiguration.certificateVerification` at its default: the callback replaces BoringSSL's verification,
    /// and NIOSSL skips it when verification is `.none`.
    ///
    /// - Parameters:
    ///   - identity: The host or IP the client meant to reach.
    ///   - clock: The evaluation time for each handshake.
    ///   - onResult: Receives every verdict, with its reasons (the callback itself can only say yes or no).
    public func nioVerificationCallback(
        for identity: ServerIdentity,
        clock: @escaping @Sendable () -> Date = { Date() },
        onResult: (@Sendable (ServerTrustResult) -> Void)? = nil
    ) -> NIOSSLCustomVerificationCallback {
        let evaluator = self
        return { certificates, promise in
            promise.completeWithTask {
                let result = await evaluator.evaluateHandshake(certificates, identity, clock, onResult)
                return result.isTrusted ? .certificateVerified : .failed
            }
        }
    }

    /// The metadata variant: a trusted handshake also hands NIOSSL the validated chain (leaf first), which the
    /// channel then exposes to the application.
    public func nioVerificationCallbackWithMetadata(
        for identity: ServerIdentity,
        clock: @escaping @Sendable () -> Date = { Date() },
        onResult: (@Sendable (ServerTrustResult) -> Void)? = nil
    ) -> NIOSSLCustomVerificationCallbackWithMetadata {
        let evaluator = self
        return { certificates, promise in
            promise.completeWithTask {
                let result = await evaluator.evaluateHandshake(certificates, identity, clock, onResult)
                guard result.isTrusted else { return .failed }
                return .certificateVerified(VerificationMetadata(Self.nioChain(result.chain)))
            }
        }
    }

    private func evaluateHandshake(
        _ certificates: [NIOSSLCertificate],
        _ identity: ServerIdentity,
        _ clock: @Sendable () -> Date,
        _ onResult: (@Sendable (ServerTrustResult) -> Void)?
    ) async -> ServerTrustResult {
        let result = await self.evaluate(chain: Self.chain(certificates), for: identity, at: clock())
        onResult?(result)
        return result
    }

    /// The validated path as NIOSSL certificates, or `nil` when there is none (a report-only pass).
    static func nioChain(_ chain: [Certificate]) -> NIOSSL.ValidatedCertificateChain? {
        var certificates: [NIOSSLCertificate] = []
        for certificate in chain {
            var serializer = DER.Serializer()
            guard (try? serializer.serialize(certificate)) != nil,
                let converted = try? NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
            else { return nil }
            certificates.append(converted)
        }
        return certificates.isEmpty ? nil : NIOSSL.ValidatedCertificateChain(certificates)
    }

    /// The presented certificates as swift-certificates values; one that does not parse empties the chain, which
    /// evaluates as `malformed_chain`.
    static func chain(_ certificates: [NIOSSLCertificate]) -> [Certificate] {
        var chain: [Certificate] = []
        for certificate in certificates {
            guard let der = try? certificate.toDERBytes(), let parsed = try? Certificate(derEncoded: der) else {
                return []
            }
            chain.append(parsed)
        }
        return chain
    }
}
