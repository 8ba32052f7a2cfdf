import Foundation
import NIOConcurrencyHelpers
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// Runs swift-certificates' OCSP policy over a trusted path and says what came of it, telling a responder that
/// could not be reached (retryable) from an answer (final).
struct RevocationChecker {
    enum Outcome: Equatable {
        case good
        case revoked
        case unknown
        case unavailable
        case failed
    }

    let check: JWSRevocationCheck

    /// Checks `path` (leaf first, ending at its anchor) at `now`.
    func evaluate(path: [Certificate], now: Date) async -> Outcome {
        guard let root = path.last, path.count > 1 else { return .good }
        let requester = ReportingRequester(transport: self.check.transport)
        // The path was validated already (at its own trust time); here only revocation is asked about, so the
        // critical extensions the first evaluation checked are declared handled.
        let critical = path.flatMap { certificate in certificate.extensions.filter(\.critical).map(\.oid) }
        var verifier = Verifier(rootCertificates: CertificateStore([root])) {
            OCSPVerifierPolicy(failureMode: .hard, requester: requester, fixedExpiryValidationTime: now)
            ValidatedPathPolicy(verifyingCriticalExtensions: critical)
        }
        let result = await verifier.validate(leaf: path[0], intermediates: CertificateStore(path.dropFirst().dropLast()))
        switch result {
        case .validCertificate:
            return .good  // a transport failure is terminal, so a valid result had every answer it needed
        case .couldNotValidate(let failures):
            if !requester.reachedEveryResponder { return .unavailable }
            let reasons = failures.map { String(describing: $0.policyFailureReason) }
            // swift-certificates' wording for the two answers a responder gives about a certificate.
            if reasons.contains(where: { $0.contains("revoked through OCSP") }) { return .revoked }
            if reasons.contains(where: { $0.contains("status unknown") }) { return .unknown }
            return .failed
        }
    }
}

/// Declares the critical extensions of a path that was validated before as handled, and asks nothing else.
struct ValidatedPathPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier]

    mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        .meetsPolicy
    }
}

/// swift-certificates' requester over the caller's ``OCSPTransport``: a transport that throws becomes a terminal
/// error (swift-certificates lets a "non-terminal" one pass silently, even in hard-fail mode) and is remembered, so
/// the outcome is reported as unavailable rather than as an answer.
final class ReportingRequester: OCSPRequester, Sendable {
    private let transport: any OCSPTransport
    private let failed = NIOLockedValueBox(false)

    init(transport: any OCSPTransport) {
        self.transport = transport
    }

    var reachedEveryResponder: Bool {
        !self.failed.withLockedValue { $0 }
    }

    func query(request: [UInt8], uri: String) async -> OCSPRequesterQueryResult {
        do {
            return .response(try await self.transport.response(to: request, from: uri))
        } catch {
            self.markFailed()
            return .terminalError(error)
        }
    }

    private func markFailed() {
        self.failed.withLockedValue { $0 = true }
    }
}
