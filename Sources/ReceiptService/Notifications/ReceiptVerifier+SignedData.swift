public import AppStoreJWS
import struct Foundation.Date
import ReceiptKit
import ReceiptLedger

extension ReceiptVerifier {
    /// Answers one App Store Server Notification V2 (`{"signedPayload": …}`): verifies it and the data nested in it,
    /// checks its age, app and environment, and records it — or, when its `notificationUUID` is recorded already,
    /// acknowledges it without applying anything. Nothing is recorded for a notification that fails a check.
    ///
    /// Order: the body and the JWS (`malformed`), signatures, chains and markers of the notification and its
    /// nested data (`rejected`; `unavailable` when only a revocation check could not be made), a payload whose
    /// fields name a notification and no other kind (`malformed`, `not_a_notification`), `notificationUUID` and
    /// `signedDate` present (`malformed`), age and clock skew, environment and allow list, nested data of the same
    /// app and environment, no U+0000 in what is stored (each `rejected`; `string_contains_nul`), the ledger
    /// (`recorded` or `duplicate`; `unavailable` when it cannot be reached). The HTTP layer answers `malformed`
    /// with 400, `rejected` with 422 and `unavailable` with 503 (see ``SignedDataOutcome``).
    public func answerNotification(body: [UInt8]) async -> SignedDataAnswer {
        let answer = await self.evaluateNotification(body: body)
        self.metrics.countSignedData(endpoint: .notifications, outcome: answer.outcome)
        return answer
    }

    /// Records one notification that Get Notification History returned for `bundleIdentifier` in `environment` (its
    /// `signedPayload`), through the checks and the recording a posted one goes through
    /// (``answerNotification(body:)``), except the maximum age: it comes from Apple over its authenticated API, not
    /// from a client that may replay it. A notification of another app or environment is `rejected`
    /// (`notification_of_another_app`). Not counted in `receiptkit_signed_data_requests_total` (not a request): the
    /// backfill counts its windows and the notifications it recovered.
    public func answerBackfilledNotification(
        signedPayload: String, environment: AppStoreEnvironment, bundleIdentifier: String
    ) async -> SignedDataAnswer {
        await self.verifyingSignedData { verifier, now throws(JWSError) in
            (try await verifier.verifyNotification(signedPayload, now: now), signedPayload)
        } then: { verified, now in
            await self.record(
                verified.0, signedPayload: verified.1, now: now,
                backfilledFor: (environment: environment, bundleIdentifier: bundleIdentifier))
        }
    }

    /// Verifies one JWS of any kind (a compact JWS, or a body `{"signedPayload": …}`) and answers the verdict with
    /// the decoded payload: `valid` or `invalid` (with reasons), `malformed`. Records nothing.
    /// - Parameters:
    ///   - body: The request body.
    ///   - kind: The payload kind, or `nil` to tell it from the payload's fields: a payload whose fields name no
    ///     kind, or several, is answered with kind `unknown` (AppStoreJWS's `JWSVerifier.verify(_:kind:now:)`).
    public func answerJWS(body: [UInt8], kind: AppStoreSignedDataKind?) async -> SignedDataAnswer {
        let answer = await self.evaluateJWS(body: body, kind: kind)
        self.metrics.countSignedData(endpoint: .jws, outcome: answer.outcome)
        return answer
    }

    private func evaluateJWS(body: [UInt8], kind: AppStoreSignedDataKind?) async -> SignedDataAnswer {
        await self.verifyingSignedData { verifier, now throws(JWSError) in
            let jws = try NotificationRequestBody.compactJWS(in: body, configuration: verifier.decodingConfiguration)
            return try await verifier.verify(jws, kind: kind, now: now)
        } then: { verdict, _ in
            Self.answer(verdict.isValid ? .valid : .invalid, verdict.reasons.map(ServiceReason.init(reasonCode:)), extra: verdict.json)
        }
    }

    private func evaluateNotification(body: [UInt8]) async -> SignedDataAnswer {
        await self.verifyingSignedData { verifier, now throws(JWSError) in
            let envelope = try NotificationRequestBody(jsonEncoded: body, configuration: verifier.decodingConfiguration)
            return (try await verifier.verifyNotification(envelope.signedPayload, now: now), envelope.signedPayload)
        } then: { verified, now in
            await self.record(verified.0, signedPayload: verified.1, body: body, now: now)
        }
    }

    /// Runs `verify` with the JWS verifier and the service's clock, bounded by the validation limiter, then
    /// `answer` on what it returned: `unavailable` (`timeout`) when it never ran, `malformed` when it threw.
    private func verifyingSignedData<Verified: Sendable>(
        _ verify: @escaping @Sendable (JWSVerifier, Date) async throws(JWSError) -> Verified,
        then answer: (Verified, Date) async -> SignedDataAnswer
    ) async -> SignedDataAnswer {
        let now = self.now()
        let verifier = self.jwsVerifier
        let outcome = await self.limiter.run { () -> Result<Verified, JWSError> in
            do throws(JWSError) {
                return .success(try await verify(verifier, now))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .none:
            return Self.answer(.unavailable, [.timeout])
        case .failure(let error):
            return Self.answer(.malformed, [ServiceReason(error.code)], reason: error.reason)
        case .success(let verified):
            return await answer(verified, now)
        }
    }

    /// A verified notification's checks past its signatures, and its recording (with `signedPayload`, the JWS it
    /// was read from, and the JWS of the transaction and renewal information nested in it, as Apple signed them).
    /// - Parameters:
    ///   - body: The request body it came in, forwarded as it is; `nil` for a backfilled one (then
    ///     `{"signedPayload": …}` is forwarded, as Apple would have posted it).
    ///   - backfilledFor: The app and environment whose notification history returned it, `nil` for a posted
    ///     notification (which alone is held to the maximum age).
    private func record(
        _ result: NotificationVerificationResult, signedPayload: String, body: [UInt8]? = nil, now: Date,
        backfilledFor: (environment: AppStoreEnvironment, bundleIdentifier: String)? = nil
    ) async -> SignedDataAnswer {
        guard result.isValid else {
            // A responder that could not be reached says nothing against the notification: unavailable, so
            // Apple retries.
            let verdict = JWSVerdict(result)
            let reasons = verdict.reasons.map(ServiceReason.init(reasonCode:))
            return Self.answer(verdict.isRetryable ? .unavailable : .rejected, reasons)
        }

        let notification = result.notification.payload
        // A JWS of another kind, or of none, is not recorded as a notification (`/jws/verify` answers any kind).
        let kind = AppStoreSignedDataKind(detecting: notification.fields)
        guard kind == .notification else {
            return Self.answer(.malformed, [.notANotification],
                reason: "the payload's fields name kind \(kind.rawValue), not notification (notificationType alone)")
        }
        guard let uuid = notification.notificationUUID, !uuid.isEmpty else {
            return Self.answer(.malformed, [.notificationUUIDMissing])
        }
        guard let signed = notification.signedDate?.date else {
            return Self.answer(.malformed, [.signedDateMissing])
        }
        let limits = self.configuration.notifications
        if backfilledFor == nil, now.timeIntervalSince(signed) > limits.maximumAge / .seconds(1) {
            return Self.answer(.rejected, [.notificationTooOld])
        }
        if signed.timeIntervalSince(now) > limits.maximumClockSkew / .seconds(1) {
            return Self.answer(.rejected, [.notificationSignedInFuture])
        }
        guard let environment = Self.ledgerEnvironment(notification.environment) else {
            return Self.answer(.rejected, [.environmentUnknown])
        }
        let bundle = notification.bundleIdentifier ?? ""
        if let backfilledFor, backfilledFor.environment != environment || backfilledFor.bundleIdentifier != bundle {
            return Self.answer(.rejected, [.notificationOfAnotherApp])
        }
        if let allowed = self.configuration.allowedBundleIdentifiers, !allowed.contains(bundle) {
            return Self.answer(.rejected, [.bundleIDNotAllowed])
        }
        // Nested data must belong to the notification's app: a valid transaction of another app is not applied here.
        if let transaction = result.transaction?.payload, transaction.bundleIdentifier != bundle {
            return Self.answer(.rejected, [.transactionBundleIDMismatch])
        }
        // …and to its environment: a Sandbox transaction inside a Production notification is not recorded as
        // Production (rows are keyed by the notification's environment).
        if let transaction = result.transaction?.payload, transaction.environment != notification.environment {
            return Self.answer(.rejected, [.transactionEnvironmentMismatch])
        }
        if let renewal = result.renewalInfo?.payload, renewal.environment != notification.environment {
            return Self.answer(.rejected, [.renewalInfoEnvironmentMismatch])
        }
        let transactionJWS = notification.data?.signedTransactionInfo
        let record = LedgerNotification(
            notificationUUID: uuid,
            environment: environment,
            bundleIdentifier: bundle,
            notificationType: notification.notificationType?.rawValue ?? "",
            subtype: notification.subtype?.rawValue,
            signedMilliseconds: signed.epochMilliseconds,
            receivedMilliseconds: now.epochMilliseconds,
            payloadJSON: JSONValue.object(notification.fields).serialized,
            transaction: result.transaction.flatMap { verified in
                transactionJWS.flatMap {
                    LedgerTransaction(verified: verified.payload, jws: $0, environment: environment, source: .notification)
                }
            },
            renewalInfo: result.renewalInfo.flatMap {
                LedgerRenewalInfo(
                    verified: $0.payload, jws: notification.data?.signedRenewalInfo, bundleIdentifier: bundle,
                    environment: environment, source: .notification)
            },
            signedPayload: signedPayload,
            forwarding: self.forwarding(of: bundle, body: body, signedPayload: signedPayload, now: now)
        )
        do {
            let applied = try await self.ledger.recordNotification(record)
            if applied, record.forwarding != nil { self.outbox?.poke() }
            self.metrics.noteNotification(
                .init(environment: environment.rawValue, bundleIdentifier: bundle), signedMilliseconds: signed.epochMilliseconds)
            return Self.answer(applied ? .recorded : .duplicate, [], extra: .object(["notificationUUID": .string(uuid)]))
        } catch {
            // U+0000 in a stored string: the ledger refuses it before any write, on every backend alike (PostgreSQL
            // cannot store it), so Apple is told not to retry a message that can never be recorded.
            if error.code == .stringContainsNUL { return Self.answer(.rejected, [.stringContainsNUL]) }
            self.metrics.countLedgerFailure()
            return Self.answer(.unavailable, [error.isRetryable ? .ledgerUnavailable : .ledgerError])
        }
    }

    /// Where a notification of `bundleIdentifier` is sent on: its targets' outbox entries, or `nil` without any.
    private func forwarding(of bundleIdentifier: String, body: [UInt8]?, signedPayload: String, now: Date) -> LedgerForwarding? {
        let forwarding = self.configuration.notifications.forwarding
        let targets = forwarding.targets(of: bundleIdentifier)
        guard !targets.isEmpty else { return nil }
        let deadline = now.epochMilliseconds.addingReportingOverflow(NotificationBackfillService.milliseconds(forwarding.deadline))
        return LedgerForwarding(
            targets: targets.map(\.name),
            body: body ?? JSONValue.object(["signedPayload": .string(signedPayload)]).serialized,
            deadlineMilliseconds: deadline.overflow ? .max : deadline.partialValue)
    }

    /// The environment signed data is kept under: local StoreKit testing is kept with Xcode's; an environment this
    /// version does not know is not kept.
    static func ledgerEnvironment(_ environment: AppStoreEnvironment?) -> AppStoreEnvironment? {
        switch environment {
        case .production?, .sandbox?, .xcode?: return environment
        case .localTesting?: return .xcode
        default: return nil
        }
    }

    /// `{"status": outcome, "reasons": […], "reason": …}` merged with `extra`'s members.
    static func answer(
        _ outcome: SignedDataOutcome, _ reasons: [ServiceReason], reason: String? = nil, extra: JSONValue? = nil
    ) -> SignedDataAnswer {
        var members: [String: JSONValue] = [
            "status": .string(outcome.rawValue), "reasons": .array(reasons.map { .string($0.code) }),
        ]
        if let reason { members["reason"] = .string(reason) }
        if case .object(let more)? = extra { members.merge(more) { current, _ in current } }
        return SignedDataAnswer(outcome: outcome, reasons: reasons, body: JSONValue.object(members).serialized)
    }
}
