import Foundation
import ReceiptKit
import ReceiptKitTesting
import SwiftASN1
import ReceiptTestSupport
import _ReceiptKitShared
import Testing
import X509

/// Our signature-and-chain verdict against `openssl cms -verify`, on random minted receipts and random mutations
/// of them. "Malformed" on our side agrees with an OpenSSL failure.
///
/// Deliberate disagreements, each checked precisely rather than ignored:
/// - **Certificates off the validated path.** A receipt carries a copy of its root; when the anchor comes from the
///   caller, that copy is not on the path. OpenSSL parses every certificate with its own leniencies (BER lengths)
///   and strictness (BIT STRING contents inside a name). We parse every certificate with swift-certificates: DER
///   structure is required (a bad length is `malformed_certificate`, where OpenSSL may still verify), while
///   attribute values stay opaque (a mangled value in an unused certificate does not stop us, where OpenSSL fails
///   to parse the whole message). Either way the signer, the validated path and the payload are byte-identical to
///   the original receipt's.
/// - **Apple's markers.** OpenSSL knows nothing of them: a chain without them verifies there and is
///   `signer_not_receipt_signing` here (covered in `ValidationRuleTests`; every generated chain carries them).
@Suite(.enabled(if: OpenSSL.path != nil, Comment(rawValue: OpenSSL.skipMessage)))
struct DifferentialTests {
    enum Verdict: Equatable {
        case valid
        case invalid
        case malformed(ReceiptError.Code)
    }

    struct Ours {
        var verdict: Verdict
        var result: ReceiptValidationResult?
    }

    static func ours(_ bytes: [UInt8], _ validator: ReceiptValidator) async -> Ours {
        do {
            let result = try await validator.validate(bytes, now: TestPKI.now)
            let trustFailures: Set<ReceiptValidationFailure> = [
                .signatureInvalid, .certificateUntrusted, .certificateExpired, .signerNotReceiptSigning,
            ]
            return Ours(verdict: result.failures.contains(where: trustFailures.contains) ? .invalid : .valid, result: result)
        } catch {
            return Ours(verdict: .malformed(error.code), result: nil)
        }
    }

    @Test func verdictsAgreeWithOpenSSL() async throws {
        var rng = SplitMix64(state: 0xD1FF)
        let ca = try TestPKI.ca
        let anchor = try ca.root.certificate.serializeAsPEM().pemString
        let validator = try TestPKI.validator()
        var counts: [String: Int] = [:]

        for round in 0..<300 {
            var receipt = TestPKI.sampleReceipt
            receipt.appVersion = String(round)
            receipt.inAppPurchases = Array(repeating: receipt.inAppPurchases[0], count: round % 4)
            let options = TestPKI.mintingOptions[Int.random(in: 0..<TestPKI.mintingOptions.count, using: &rng)]
            let original = try ReceiptMinter.mint(receipt, signer: ca.receiptSigner, options: options)
            let input = round < 40 ? original : MutationTests.mutate(original, &rng)

            let mine = await Self.ours(input, validator)
            let theirs = try await OpenSSL.verify(receipt: input, anchorPEM: anchor).status == 0
            switch (mine.verdict, theirs) {
            case (.valid, true), (.invalid, false), (.malformed, false):
                counts["agree", default: 0] += 1
            case (.malformed(.malformedCertificate), true):
                counts["stricter certificate parsing", default: 0] += 1
            case (.valid, false):
                // Allowed only when what we validated is exactly the original's: same payload, same path.
                let reference = await Self.ours(original, validator)
                #expect(mine.result?.receipt == reference.result?.receipt, "round \(round)")
                #expect(mine.result?.certificatePath == reference.result?.certificatePath, "round \(round)")
                #expect(mine.result?.certificatePath.contains(ca.root.certificate) == true, "round \(round)")
                counts["unused certificate OpenSSL cannot parse", default: 0] += 1
            default:
                let saved = FileManager.default.temporaryDirectory.appendingPathComponent("differential-\(round).der")
                try Data(input).write(to: saved)
                Issue.record("round \(round): ReceiptKit \(mine.verdict), OpenSSL \(theirs), input saved to \(saved.path)")
            }
        }
        #expect(counts["agree", default: 0] >= 290, "\(counts)")
    }
}
