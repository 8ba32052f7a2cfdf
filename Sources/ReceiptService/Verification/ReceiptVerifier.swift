import AppStorePKI
import AppStoreJWS
import Crypto
public import struct Foundation.Date
import Prometheus
import ReceiptKit
public import ReceiptLedger
import _ReceiptKitShared

/// verifyReceipt without HTTP: a request body in, the status and response body out. The Hummingbird routes are a
/// thin layer over this, and tests and other servers can call it directly (``ServiceComponents/verifier``).
///
/// Order of checks: the body (21002), the receipt's bytes (21002), signature and chain (21003), the endpoint's
/// environment (21007/21008), the allow list (21010), the shared secret (21004), the ledger (21009; 21002
/// `string_contains_nul` for a string to be stored that holds U+0000). Nothing the
/// receipt says is believed before its signature and chain have verified. For an app configured in
/// ``VerifyReceiptConfiguration/appStoreServerAPI``, the ledger is then refreshed from the App Store Server API
/// where it is due, within ``AppStoreServerAPIBridgeConfiguration/refreshWait``, before the answer is read from it.
public struct ReceiptVerifier: Sendable {
    /// What the service accepts.
    public let configuration: VerifyReceiptConfiguration
    /// Where transactions are remembered.
    public let ledger: any Ledger
    /// The service's clock: `request_date`, VPP expiry and ledger timestamps come from here, never from the system.
    public let now: @Sendable () -> Date
    let validator: ReceiptValidator
    let jwsVerifier: JWSVerifier
    let limiter: ValidationLimiter
    /// The ledger keys of receipts posted recently: one posted again is compared, not hashed.
    let receiptHashes: ReceiptHashMemo
    let metrics: ServiceMetrics
    /// The App Store Server API refresh; `nil` when no app is configured for it.
    let refresher: (any LedgerRefreshing)?
    /// Wakes the notification forwarder when a notification gave the outbox entries; `nil` without targets.
    let outbox: OutboxSignal?

    /// A verifier of collaborators the composition root (``ServiceComponents``) made.
    init(
        configuration: VerifyReceiptConfiguration,
        ledger: any Ledger,
        validator: ReceiptValidator,
        jwsVerifier: JWSVerifier,
        limiter: ValidationLimiter,
        receiptHashes: ReceiptHashMemo,
        metrics: ServiceMetrics,
        refresher: (any LedgerRefreshing)?,
        outbox: OutboxSignal? = nil,
        now: @escaping @Sendable () -> Date
    ) {
        self.configuration = configuration
        self.ledger = ledger
        self.validator = validator
        self.jwsVerifier = jwsVerifier
        self.limiter = limiter
        self.receiptHashes = receiptHashes
        self.metrics = metrics
        self.refresher = refresher
        self.outbox = outbox
        self.now = now
    }

    /// Answers one request body addressed to `endpoint`.
    public func answer(body: [UInt8], endpoint: VerifyReceiptEndpoint) async -> VerifyReceiptAnswer {
        let answer = await self.evaluate(body: body, endpoint: endpoint)
        self.metrics.count(answer, endpoint: endpoint)
        return answer
    }

    private func evaluate(body: [UInt8], endpoint: VerifyReceiptEndpoint) async -> VerifyReceiptAnswer {
        let request: VerifyReceiptRequest
        do {
            request = try VerifyReceiptRequest(body: body)
        } catch {
            return .failure(.malformed, reasons: [ServiceReason(reasonCode: error.code)])
        }
        let now = self.now()

        // Decoding and validation are CPU work: bounded in number, and never on an event-loop thread.
        let validator = self.validator
        let decoding = self.configuration.decodingConfiguration
        let metrics = self.metrics
        let outcome = await self.limiter.run { () -> Result<ValidatedReceipt, ReceiptError> in
            let start = ContinuousClock.now
            defer { metrics.validationDuration.record(ContinuousClock.now - start) }
            do throws(ReceiptError) {
                let (bytes, text) = try ReceiptInput.decodeBase64(request.receiptData, configuration: decoding)
                return .success(
                    ValidatedReceipt(bytes: bytes, text: text, result: try await validator.validate(bytes, now: now)))
            } catch {
                return .failure(error)
            }
        }
        let bytes: [UInt8]
        let text: CanonicalBase64?
        let result: ReceiptValidationResult
        switch outcome {
        case .none:
            return .failure(.internalError, reasons: [.timeout], retryable: true)
        case .failure(let error):
            return .failure(.malformed, reasons: [ServiceReason(error.code)])
        case .success(let validated):
            (bytes, text, result) = (validated.bytes, validated.text, validated.result)
        }
        guard result.isValid else {
            return .failure(.notAuthenticated, reasons: result.failures.map(ServiceReason.init))
        }

        let environment = result.appStoreEnvironment
        switch (endpoint, environment) {
        case (.production, .sandbox), (.production, .xcode):
            return .failure(.sandboxReceiptOnProduction, reasons: [.sandboxReceipt])
        case (.sandbox, .production):
            return .failure(.productionReceiptOnSandbox, reasons: [.productionReceipt])
        default:
            break
        }

        let receipt = result.receipt
        let bundle = receipt.bundleIdentifier ?? ""
        if let allowed = self.configuration.allowedBundleIdentifiers, !allowed.contains(bundle) {
            return .failure(.bundleNotAllowed, reasons: [.bundleIDNotAllowed])
        }
        if let secret = self.configuration.sharedSecrets[bundle],
            !Self.sameSecret(request.password ?? "", secret)
        {
            return .failure(.sharedSecretMismatch, reasons: [.sharedSecretMismatch])
        }

        let entry = LedgerReceipt(receipt, bytes: bytes, environment: environment, seenAt: now, hashes: self.receiptHashes)
        let history: LedgerHistory
        do {
            history = try await self.history(recording: entry, now: now)
        } catch {
            // A stored string holding U+0000: refused alike by every backend before any write (it would be kept
            // by SQLite and refused by PostgreSQL for ever), so it is the receipt's fault, not the database's.
            if error.code == .stringContainsNUL { return .failure(.malformed, reasons: [.stringContainsNUL]) }
            return .failure(
                .internalError,
                reasons: [error.isRetryable ? .ledgerUnavailable : .ledgerError],
                retryable: error.isRetryable)
        }
        return VerifyReceiptAnswer(
            status: .valid,
            reasons: [],
            isRetryable: false,
            body: VerifyReceiptResponseWriter.valid(
                receipt: receipt,
                environment: environment,
                requestDate: now,
                history: history,
                postedText: text,
                excludeOldTransactions: request.excludeOldTransactions)
        )
    }

    /// Compares the SHA-256 digests of both secrets in constant time: neither the content nor the length of the
    /// configured secret shows in the timing.
    static func sameSecret(_ sent: String, _ configured: String) -> Bool {
        ConstantTime.equals(Array(SHA256.hash(data: Array(sent.utf8))), Array(SHA256.hash(data: Array(configured.utf8))))
    }
}

/// A receipt's bytes and its verdict.
struct ValidatedReceipt: Sendable {
    let bytes: [UInt8]
    /// The base64 text it was posted as, when canonical.
    let text: CanonicalBase64?
    let result: ReceiptValidationResult
}

extension VerifyReceiptAnswer {
    static func failure(_ status: VerifyReceiptStatus, reasons: [ServiceReason], retryable: Bool = false) -> VerifyReceiptAnswer {
        VerifyReceiptAnswer(
            status: status,
            reasons: reasons,
            isRetryable: retryable,
            body: VerifyReceiptResponseWriter.failure(status: status, reasons: reasons, retryable: retryable)
        )
    }
}
