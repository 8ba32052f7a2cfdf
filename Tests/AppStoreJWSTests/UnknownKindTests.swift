import AppStorePKI
import AppStoreJWS
import Foundation
import ReceiptKit
import ReceiptKitTesting
import Testing
import X509

/// A JWS whose fields name no kind, or several — Apple's published test vectors hold only `bundleId`, `environment`
/// and `signedDate` — is verified as kind `unknown`, never refused as an error: signature, chain, markers, and each
/// expectation whose field it holds. Minted here with a test authority; time is pinned.
struct UnknownKindTests {
    static let signed = AppStoreTimestamp(millisecondsSince1970: 1_700_000_000_000)
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    /// The shape of Apple's test vectors: a transaction holding only these three fields.
    static func vector(_ edit: (inout [String: JSONValue]) -> Void = { _ in }) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "bundleId": .string("com.example"), "environment": .string("Sandbox"), "signedDate": .number(Self.signed.number),
        ]
        edit(&fields)
        return fields
    }

    let authority: JWSTestAuthority

    init() throws {
        self.authority = try JWSTestAuthority()
    }

    func mint(_ payload: [String: JSONValue], faults: JWSMinter.Faults = .none) throws -> [UInt8] {
        Array(try JWSMinter.sign(payload, signer: self.authority.leaf, chain: self.authority.chain, faults: faults).utf8)
    }

    func verdict(
        _ jws: [UInt8],
        kind: AppStoreSignedDataKind? = nil,
        anchors: [Certificate]? = nil,
        _ edit: (inout JWSVerificationPolicy) -> Void = { _ in }
    ) async throws -> JWSVerdict {
        var policy = JWSVerificationPolicy(anchors: AppStoreTrustAnchors(anchors ?? [self.authority.root.certificate]))
        edit(&policy)
        return try await JWSVerifier(policy: policy, cache: nil).verify(jws, kind: kind, now: Self.now)
    }

    @Test func aPayloadNamingNoKindVerifiesAsUnknown() async throws {
        let verdict = try await verdict(try mint(Self.vector())) {
            $0.bundleIdentifier = "com.example"
            $0.environment = .sandbox
        }
        #expect(verdict.kind == .unknown)
        #expect(verdict.isValid)
        #expect(verdict.reasons == [])
        #expect(verdict.environment == .sandbox)
        #expect(verdict.anchor == .callerAnchor)
        #expect(verdict.trustEvaluationTime == Self.signed.date)
        #expect(verdict.nested.isEmpty)
        guard case .object(let json) = verdict.json else { Issue.record("not an object"); return }
        #expect(json["kind"] == .string("unknown"))
        #expect(json["payload"] == .object(Self.vector()))
        // The same JWS held to a kind's rules, on request.
        #expect(try await self.verdict(try mint(Self.vector()), kind: .transaction).kind == .transaction)
    }

    @Test func aPayloadNamingSeveralKindsIsUnknown() async throws {
        let ambiguous = Self.vector {
            $0["transactionId"] = .string("2000000000000001")
            $0["applicationVersion"] = .string("42")
        }
        #expect(AppStoreSignedDataKind(detecting: ambiguous) == .unknown)
        let verdict = try await verdict(try mint(ambiguous)) { $0.bundleIdentifier = "com.example" }
        #expect(verdict.kind == .unknown)
        #expect(verdict.reasons == [])
    }

    @Test func anUnknownKindStillNeedsItsSignatureAndChain() async throws {
        #expect(try await verdict(try mint(Self.vector(), faults: .init(corruptsSignature: true))).reasons == ["signature_invalid"])
        #expect(try await verdict(try mint(Self.vector(), faults: .init(algorithm: "none"))).reasons == ["algorithm_not_allowed"])
        #expect(try await verdict(try mint(Self.vector()), anchors: []).reasons == ["certificate_untrusted"])
        let unmarked = try JWSTestAuthority(leafHasSigningMarker: false)
        let jws = try JWSMinter.sign(Self.vector(), signer: unmarked.leaf, chain: unmarked.chain)
        #expect(try await verdict(Array(jws.utf8), anchors: [unmarked.root.certificate]).reasons == ["signer_not_app_store"])
    }

    @Test func anUnknownKindIsHeldToEveryExpectationWhoseFieldItHolds() async throws {
        let jws = try mint(Self.vector())
        #expect(try await verdict(jws) { $0.bundleIdentifier = "com.example.other" }.reasons == ["bundle_id_mismatch"])
        #expect(try await verdict(jws) { $0.environment = .production }.reasons == ["environment_mismatch"])
        // The app's Apple ID, where it is present, in Production (as for the kinds that carry it).
        let production = try mint(Self.vector {
            $0["environment"] = .string("Production")
            $0["appAppleId"] = .number(JSONNumber(1_234_567_890))
        })
        #expect(try await verdict(production) { $0.appAppleID = 1_234_567_890 }.reasons == [])
        #expect(try await verdict(production) { $0.appAppleID = 42 }.reasons == ["app_apple_id_mismatch"])
        // A field the payload does not hold is not checked: a verdict of unknown kind does not say what it is.
        let anonymous = try mint(Self.vector { $0["bundleId"] = nil })
        #expect(try await verdict(anonymous) { $0.bundleIdentifier = "com.example" }.reasons == [])
        #expect(try await verdict(anonymous, kind: .transaction) { $0.bundleIdentifier = "com.example" }.reasons == ["bundle_id_mismatch"])
    }

    @Test func anUnknownKindNamingTwoEnvironmentsMatchesNeitherAlone() async throws {
        // A transaction's `environment` and an AppTransaction's `receiptType`: two kinds, two environments.
        let both = try mint(Self.vector {
            $0["transactionId"] = .string("2000000000000001")
            $0["receiptType"] = .string("Production")
        })
        let verdict = try await verdict(both)
        #expect(verdict.kind == .unknown)
        #expect(verdict.environment == nil)
        #expect(try await self.verdict(both) { $0.environment = .sandbox }.reasons == ["environment_mismatch"])
        #expect(try await self.verdict(both) { $0.environment = .production }.reasons == ["environment_mismatch"])
    }

    @Test func anUnknownKindClaimingXcodeAnywhereNeedsTheOptIn() async throws {
        let local = try JWSTestAuthority.localTestingSigner()
        let payload = Self.vector {
            $0["transactionId"] = .string("2000000000000001")
            $0["environment"] = .string("Production")
            $0["receiptType"] = .string("Xcode")
        }
        let jws = Array(try JWSMinter.sign(payload, signer: local, chain: [local.certificate]).utf8)
        #expect(try await verdict(jws).reasons == ["local_environment_not_allowed"])
        let allowed = try await verdict(jws) { $0.allowsLocalEnvironments = true }
        #expect(allowed.reasons == [])
        #expect(allowed.anchor == .selfSignedLocal)
        #expect(allowed.environment == nil)
    }

    @Test func aFieldTheVerifierReadsMustHaveItsType() async throws {
        let error = await #expect(throws: JWSError.self) {
            _ = try await self.verdict(try self.mint(Self.vector { $0["signedDate"] = .string("yesterday") }))
        }
        #expect(error?.code == .malformedPayload)
    }
}
