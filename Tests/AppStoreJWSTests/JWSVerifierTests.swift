import AppStorePKI
import AppStoreJWS
import Foundation
import ReceiptKit
import ReceiptKitTesting
import Testing
import X509

/// Every verification rule with the exact reason code, on JWS minted here with a test authority (nothing
/// Apple-signed is committed). Time is pinned: `signedDate` is fixed and `now` is passed in.
struct JWSVerifierTests {
    static let signed = AppStoreTimestamp(millisecondsSince1970: 1_700_000_000_000)
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    static func transaction(_ edit: (inout [String: JSONValue]) -> Void = { _ in }) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "transactionId": .string("2000000123456789"),
            "originalTransactionId": .string("2000000000000001"),
            "bundleId": .string("com.example.app"),
            "productId": .string("com.example.app.pro"),
            "purchaseDate": .number(JSONNumber(1_699_999_000_000)),
            "signedDate": .number(Self.signed.number),
            "environment": .string("Production"),
            "type": .string("Auto-Renewable Subscription"),
        ]
        edit(&fields)
        return fields
    }

    let authority: JWSTestAuthority

    init() throws {
        self.authority = try JWSTestAuthority()
    }

    func verify<Payload: AppStoreSignedPayload>(
        _ jws: String,
        as type: Payload.Type = JWSTransactionPayload.self,
        anchors: [Certificate]? = nil,
        _ edit: (inout JWSVerificationPolicy) -> Void = { _ in }
    ) async throws -> JWSVerificationResult<Payload> {
        var policy = JWSVerificationPolicy(anchors: AppStoreTrustAnchors(anchors ?? [self.authority.root.certificate]))
        edit(&policy)
        return try await JWSVerifier(policy: policy, cache: nil).verify(jws, as: type, now: Self.now)
    }

    func mint(_ payload: [String: JSONValue] = Self.transaction(), faults: JWSMinter.Faults = .none) throws -> String {
        try JWSMinter.sign(payload, signer: self.authority.leaf, chain: self.authority.chain, faults: faults)
    }

    // MARK: the good case

    @Test func aTransactionSignedByTheAuthorityVerifies() async throws {
        let result = try await verify(try mint())
        #expect(result.failures == [])
        #expect(result.anchor == .callerAnchor)
        #expect(result.certificatePath == self.authority.chain)
        #expect(result.trustEvaluationTime == Self.signed.date)
        #expect(result.payload.transactionID == "2000000123456789")
        #expect(result.payload.bundleIdentifier == "com.example.app")
        #expect(result.payload.environment == .production)
        #expect(result.payload.purchaseDate?.millisecondsSince1970 == 1_699_999_000_000)
    }

    // MARK: header

    @Test(arguments: ["none", "HS256", "RS256", "ES384", "es256"])
    func everyAlgorithmButES256IsRefused(algorithm: String) async throws {
        let result = try await verify(try mint(faults: .init(algorithm: algorithm)))
        #expect(result.failures == [.algorithmNotAllowed])
        #expect(result.certificatePath.isEmpty)
    }

    @Test(arguments: ["jku", "jwk", "x5u", "crit"])
    func headersThatPointElsewhereAreRefused(parameter: String) async throws {
        let jws = try mint(faults: .init(extraHeader: [parameter: .string("https://attacker.example/keys")]))
        let result = try await verify(jws)
        #expect(result.failures == [.headerParameterNotAllowed])
    }

    @Test func aMissingChainIsReported() async throws {
        let result = try await verify(try mint(faults: .init(omitsChain: true)))
        #expect(result.failures == [.certificateChainMissing])
    }

    // MARK: signature

    @Test func aDEREncodedSignatureIsRefused() async throws {
        let result = try await verify(try mint(faults: .init(derSignature: true)))
        #expect(result.failures == [.signatureMalformed])
    }

    @Test func aBrokenSignatureFails() async throws {
        let result = try await verify(try mint(faults: .init(corruptsSignature: true)))
        #expect(result.failures == [.signatureInvalid])
    }

    @Test func aPayloadEditedAfterSigningFails() async throws {
        let edited = Self.transaction { $0["productId"] = .string("com.example.app.lifetime") }
        let result = try await verify(try mint(faults: .init(payloadAfterSigning: edited)))
        #expect(result.failures == [.signatureInvalid])
        #expect(result.payload.productID == "com.example.app.lifetime")
    }

    @Test func aSignatureByAnotherKeyFails() async throws {
        let other = try JWSTestAuthority()
        let jws = try JWSMinter.sign(Self.transaction(), signer: other.leaf, chain: self.authority.chain)
        #expect(try await verify(jws).failures == [.signatureInvalid])
    }

    // MARK: chain

    @Test func aChainToAnotherRootIsUntrusted() async throws {
        let other = try JWSTestAuthority()
        let result = try await verify(try mint(), anchors: [other.root.certificate])
        #expect(result.failures == [.certificateUntrusted])
        #expect(result.anchor == nil)
    }

    @Test func onlyAppleRootG3IsTrustedWithoutAnchors() async throws {
        // Apple's default anchors: the test root is not Apple Root CA - G3, whatever x5c carries.
        let result = try await verify(try mint(), anchors: [])
        #expect(result.failures == [.certificateUntrusted])
        #expect(PinnedCertificates.appleRootCAG3.description == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
    }

    @Test func aLeafWithoutTheSigningMarkerIsRefused() async throws {
        let unmarked = try JWSTestAuthority(leafHasSigningMarker: false)
        let jws = try JWSMinter.sign(Self.transaction(), signer: unmarked.leaf, chain: unmarked.chain)
        #expect(try await verify(jws, anchors: [unmarked.root.certificate]).failures == [.signerNotAppStore])
    }

    @Test func anIntermediateWithoutTheWWDRMarkerIsUntrusted() async throws {
        let unmarked = try JWSTestAuthority(intermediateHasWWDRMarker: false)
        let jws = try JWSMinter.sign(Self.transaction(), signer: unmarked.leaf, chain: unmarked.chain)
        #expect(try await verify(jws, anchors: [unmarked.root.certificate]).failures == [.certificateUntrusted])
    }

    @Test func theChainIsValidatedAtSignedDateByDefault() async throws {
        // The leaf expired after the data was signed: valid at signedDate, expired now.
        let window = DateInterval(start: Date(timeIntervalSince1970: 1_690_000_000), end: Date(timeIntervalSince1970: 1_710_000_000))
        let shortLived = try JWSTestAuthority(leafValidity: window)
        let jws = try JWSMinter.sign(Self.transaction(), signer: shortLived.leaf, chain: shortLived.chain)
        let anchors = [shortLived.root.certificate]
        #expect(try await verify(jws, anchors: anchors).failures == [])
        #expect(try await verify(jws, anchors: anchors) { $0.trustEvaluationTime = .now }.failures == [.certificateExpired])
        let before = Date(timeIntervalSince1970: 1_600_000_000)
        #expect(try await verify(jws, anchors: anchors) { $0.trustEvaluationTime = .fixed(before) }.failures == [.certificateExpired])
    }

    // MARK: local environments

    @Test(arguments: ["Xcode", "LocalTesting"])
    func locallySignedDataNeedsTheOptIn(environment: String) async throws {
        let local = try JWSTestAuthority.localTestingSigner()
        let payload = Self.transaction { $0["environment"] = .string(environment) }
        let jws = try JWSMinter.sign(payload, signer: local, chain: [local.certificate])
        #expect(try await verify(jws).failures == [.localEnvironmentNotAllowed])
        let allowed = try await verify(jws) { $0.allowsLocalEnvironments = true }
        #expect(allowed.failures == [])
        #expect(allowed.anchor == .selfSignedLocal)
        // Passing the local certificate as an anchor is an opt-in too.
        #expect(try await verify(jws, anchors: [local.certificate]).failures == [])
    }

    @Test func aSelfSignedProductionPayloadIsNeverTrustedAsItself() async throws {
        let local = try JWSTestAuthority.localTestingSigner()
        let jws = try JWSMinter.sign(Self.transaction(), signer: local, chain: [local.certificate])
        let result = try await verify(jws) { $0.allowsLocalEnvironments = true }
        #expect(result.failures == [.certificateUntrusted])
    }

    // MARK: expectations

    @Test func theCallersExpectationsAreChecked() async throws {
        let jws = try mint()
        #expect(try await verify(jws) { $0.bundleIdentifier = "com.example.app" }.failures == [])
        #expect(try await verify(jws) { $0.bundleIdentifier = "com.example.other" }.failures == [.bundleIDMismatch])
        #expect(try await verify(jws) { $0.environment = .sandbox }.failures == [.environmentMismatch])
        #expect(try await verify(jws) { $0.environment = .production }.failures == [])
        let anonymous = try mint(Self.transaction { $0["bundleId"] = nil })
        #expect(try await verify(anonymous) { $0.bundleIdentifier = "com.example.app" }.failures == [.bundleIDMismatch])
    }

    @Test func theAppAppleIDIsCheckedInProduction() async throws {
        let app: [String: JSONValue] = [
            "appAppleId": .number(JSONNumber(1_234_567_890)), "bundleId": .string("com.example.app"),
            "receiptType": .string("Production"), "receiptCreationDate": .number(Self.signed.number),
            "applicationVersion": .string("42"), "originalPlatform": .string("iOS"),
        ]
        let jws = try mint(app)
        let good = try await verify(jws, as: AppTransactionPayload.self) { $0.appAppleID = 1_234_567_890 }
        #expect(good.failures == [])
        #expect(good.trustEvaluationTime == Self.signed.date)
        let wrong = try await verify(jws, as: AppTransactionPayload.self) { $0.appAppleID = 42 }
        #expect(wrong.failures == [.appAppleIDMismatch])
        // Sandbox data may lack the app's Apple ID: not checked there.
        var sandbox = app
        sandbox["receiptType"] = .string("Sandbox")
        sandbox["appAppleId"] = nil
        #expect(try await verify(try mint(sandbox), as: AppTransactionPayload.self) { $0.appAppleID = 42 }.failures == [])
    }

    @Test func renewalInfoPassesABundleExpectationItCannotName() async throws {
        let renewal: [String: JSONValue] = [
            "originalTransactionId": .string("2000000000000001"), "autoRenewStatus": .number(JSONNumber(1)),
            "productId": .string("com.example.app.pro"), "signedDate": .number(Self.signed.number),
            "environment": .string("Sandbox"),
        ]
        let result = try await verify(try mint(renewal), as: JWSRenewalInfoPayload.self) { $0.bundleIdentifier = "com.example.app" }
        #expect(result.failures == [])
        #expect(result.payload.autoRenewStatus == .on)
    }

    // MARK: cache

    @Test func aTrustedChainIsCachedAndItsWindowsStillChecked() async throws {
        let cache = AppStoreTrustCache()
        let policy = JWSVerificationPolicy(anchors: AppStoreTrustAnchors([self.authority.root.certificate]))
        let verifier = JWSVerifier(policy: policy, cache: cache)
        let first = try await verifier.verify(try mint(), as: JWSTransactionPayload.self, now: Self.now)
        #expect(first.failures == [])
        #expect(cache.count.outcomes == 1)
        #expect(cache.count.certificates == 3)
        // A forged JWS with the same chain is refused without touching the cache.
        let forged = try await verifier.verify(try mint(faults: .init(corruptsSignature: true)), as: JWSTransactionPayload.self, now: Self.now)
        #expect(forged.failures == [.signatureInvalid])
        let late = Self.transaction { $0["signedDate"] = .number(JSONNumber(5_000_000_000_000)) }
        let expired = try await verifier.verify(try mint(late), as: JWSTransactionPayload.self, now: Self.now)
        #expect(expired.failures == [.certificateExpired])
        #expect(cache.count.outcomes == 1)
    }
}

extension JWSVerifierTests {
    func notification(transaction: String, renewal: String) -> [String: JSONValue] {
        [
            "notificationType": .string("DID_RENEW"), "notificationUUID": .string("0b4cbb4c-6f0e-4b7a-9d4e-1a2b3c4d5e6f"),
            "version": .string("2.0"), "signedDate": .number(Self.signed.number),
            "data": .object([
                "appAppleId": .number(JSONNumber(1_234_567_890)), "bundleId": .string("com.example.app"),
                "environment": .string("Production"), "status": .number(JSONNumber(1)),
                "signedTransactionInfo": .string(transaction), "signedRenewalInfo": .string(renewal),
            ]),
        ]
    }

    func renewal() throws -> String {
        try mint([
            "originalTransactionId": .string("2000000000000001"), "autoRenewStatus": .number(JSONNumber(1)),
            "signedDate": .number(Self.signed.number), "environment": .string("Production"),
        ])
    }

    @Test func aNotificationAndItsNestedDataAreVerified() async throws {
        let jws = try mint(notification(transaction: try mint(), renewal: try renewal()))
        let policy = JWSVerificationPolicy(
            anchors: AppStoreTrustAnchors([self.authority.root.certificate]),
            bundleIdentifier: "com.example.app", appAppleID: 1_234_567_890
        )
        let result = try await JWSVerifier(policy: policy, cache: nil).verifyNotification(jws, now: Self.now)
        #expect(result.isValid)
        #expect(result.notification.payload.notificationType == .didRenew)
        #expect(result.notification.payload.appAppleID == 1_234_567_890)
        #expect(result.transaction?.payload.transactionID == "2000000123456789")
        #expect(result.renewalInfo?.payload.autoRenewStatus == .on)
        #expect(result.appTransaction == nil)
    }

    @Test func aForgedNestedTransactionFailsTheNotification() async throws {
        let forged = try mint(faults: .init(corruptsSignature: true))
        let jws = try mint(notification(transaction: forged, renewal: try renewal()))
        let policy = JWSVerificationPolicy(anchors: AppStoreTrustAnchors([self.authority.root.certificate]))
        let result = try await JWSVerifier(policy: policy, cache: nil).verifyNotification(jws, now: Self.now)
        #expect(result.notification.failures == [])
        #expect(result.transaction?.failures == [.signatureInvalid])
        #expect(result.renewalInfo?.failures == [])
        #expect(!result.isValid)
    }
}
