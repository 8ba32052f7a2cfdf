import AppStoreJWS
import AppStoreServerAPI
import ReceiptKit
@testable import ReceiptService
import Foundation
import Testing

/// The service's typed outcomes keep the wire spellings operators and clients already read: the `reasons` codes,
/// and the `/metrics` labels each derived from its type.
@Suite("Typed outcomes and their labels")
struct OutcomeLabelTests {
    @Test func theServiceReasonsKeepTheirCodes() {
        let reasons: [(ServiceReason, String)] = [
            (.sandboxReceipt, "sandbox_receipt"), (.productionReceipt, "production_receipt"),
            (.sharedSecretMismatch, "shared_secret_mismatch"), (.bundleIDNotAllowed, "bundle_id_not_allowed"),
            (.timeout, "timeout"), (.stringContainsNUL, "string_contains_nul"),
            (.ledgerUnavailable, "ledger_unavailable"), (.ledgerError, "ledger_error"),
            (.bodyBudgetExhausted, "body_budget_exhausted"), (.unknownPayloadKind, "unknown_payload_kind"),
            (.notANotification, "not_a_notification"), (.notificationUUIDMissing, "notification_uuid_missing"),
            (.signedDateMissing, "signed_date_missing"), (.notificationTooOld, "notification_too_old"),
            (.notificationSignedInFuture, "notification_signed_in_future"),
            (.environmentUnknown, "environment_unknown"),
            (.transactionBundleIDMismatch, "transaction.bundle_id_mismatch"),
            (.transactionEnvironmentMismatch, "transaction.environment_mismatch"),
            (.renewalInfoEnvironmentMismatch, "renewal_info.environment_mismatch"),
        ]
        for (reason, code) in reasons {
            #expect(reason.code == code)
            #expect(ServiceReason(reasonCode: code) == reason)
        }
        #expect(Set(reasons.map(\.1)).count == reasons.count)
    }

    @Test func aLibraryCodeIsCarriedAsItIs() {
        #expect(ServiceReason(ReceiptValidationFailure.signatureInvalid).code == "signature_invalid")
        #expect(ServiceReason(JWSVerificationFailure.algorithmNotAllowed).code == "algorithm_not_allowed")
        #expect(ServiceReason(ReceiptError.Code.malformedContainer).code == "malformed_container")
        #expect(ServiceReason(JWSError.Code.malformedJWS).code == "malformed_jws")
    }

    @Test func jwsVerificationFailureIsAReasonCode() throws {
        let failure: any ReasonCode = JWSVerificationFailure.signerNotAppStore
        #expect(failure.code == "signer_not_app_store")
        #expect(JWSVerificationFailure(reasonCode: "signer_not_app_store") == .signerNotAppStore)
        // Encoded as the bare code, as every ReasonCode is, and a code this version does not know decodes as itself.
        let encoded = try JSONEncoder().encode([JWSVerificationFailure.certificateExpired])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["certificate_expired"]"#)
        let unknown = try JSONDecoder().decode([JWSVerificationFailure].self, from: Data(#"["new_reason"]"#.utf8))
        #expect(unknown.map(\.code) == ["new_reason"])
    }

    @Test func theMetricLabelsComeFromTheirTypes() {
        #expect(APIRefreshResult.allCases.map(\.rawValue) == [
            "fresh", "fetched", "failed", "background", "in_background", "backoff", "busy", "paused", "not_running",
            "elsewhere",
        ])
        #expect(ConnectionCloseReason.allCases.map(\.rawValue) == [
            "header_timeout", "connection_limit", "body_timeout", "address_limit", "body_stalled", "write_stalled", "idle_reclaimed",
        ])
        #expect(SignedDataEndpoint.allCases.map(\.rawValue) == ["notifications", "jws"])
        #expect(SignedDataEndpoint.allCases.map(\.logName) == ["notification", "jws"])
        #expect(APICall.Outcome.success.label == "success")
        #expect(APICall.Outcome(AppStoreServerAPIError(.untrustedSignedData, "test")).label == "untrusted")
        #expect(APICall.Outcome(AppStoreServerAPIError(.malformedSignedData, "test")).label == "untrusted")
        #expect(APICall.Outcome(AppStoreServerAPIError(.rateLimited, "test")).label == "rate_limited")
    }

    @Test func aRefreshEndSaysWhatItWroteAndWhetherItIsComplete() {
        #expect(RefreshEnd(written: false, complete: true) == .nothingWritten)
        #expect(RefreshEnd(written: false, complete: false) == .nothingWritten)
        #expect(RefreshEnd(written: true, complete: false) == .incomplete)
        #expect(RefreshEnd(written: true, complete: true) == .complete)
        #expect([RefreshEnd.nothingWritten, .incomplete, .complete].map(\.wroteLedger) == [false, true, true])
    }
}
