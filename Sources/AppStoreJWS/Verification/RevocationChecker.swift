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

    /// Checks `path` (leaf first, ending at its anchor) at `now`: a verdict the check's ``RevocationCache`` keeps,
    /// or one fetched — once for every verification of the path that asks meanwhile.
    func evaluate(path: [Certificate], now: Date) async -> Outcome {
        guard path.count > 1 else { return .good }
        let check = self.check
        return await check.cache.outcome(for: path, now: now, scope: check.waitScope) {
            await Self(check: check).fetch(path: path, now: now)
        }
    }

    /// Asks the responders, and says how long their answers hold.
    private func fetch(path: [Certificate], now: Date) async -> RevocationCache.Fetched {
        let requester = ReportingRequester(transport: self.check.transport)
        let outcome = await self.ask(path: path, now: now, through: requester)
        return RevocationCache.Fetched(outcome: outcome, lifetime: requester.lifetime)
    }

    private func ask(path: [Certificate], now: Date, through requester: ReportingRequester) async -> Outcome {
        guard let root = path.last else { return .good }
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
    private struct State {
        var failed = false
        /// The span every response so far holds; `nil` before the first, or for good once one had none.
        var lifetime: OCSPResponseLifetime?
        var responses = 0
        var withoutLifetime = false
    }

    private let transport: any OCSPTransport
    private let state = NIOLockedValueBox(State())

    init(transport: any OCSPTransport) {
        self.transport = transport
    }

    var reachedEveryResponder: Bool {
        !self.state.withLockedValue { $0.failed }
    }

    /// How long all the answers received hold together; `nil` when there were none, or one had no `nextUpdate`.
    var lifetime: OCSPResponseLifetime? {
        self.state.withLockedValue { $0.withoutLifetime ? nil : $0.lifetime }
    }

    func query(request: [UInt8], uri: String) async -> OCSPRequesterQueryResult {
        do {
            let response = try await self.transport.response(to: request, from: uri)
            let lifetime = OCSPResponseLifetime(derEncoded: response)
            self.state.withLockedValue { state in
                state.responses += 1
                guard let lifetime else {
                    state.withoutLifetime = true
                    return
                }
                state.lifetime = state.lifetime.map { $0.intersection(lifetime) } ?? lifetime
            }
            return .response(response)
        } catch {
            self.markFailed()
            return .terminalError(error)
        }
    }

    private func markFailed() {
        self.state.withLockedValue { $0.failed = true }
    }
}
