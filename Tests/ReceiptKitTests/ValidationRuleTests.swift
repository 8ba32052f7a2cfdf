import AppStorePKI
import Foundation
import ReceiptKit
import ReceiptKitTesting
import ReceiptTestSupport
import Testing
import X509

/// One-field mutations of a valid minted receipt, each asserting its exact reason code.
struct ValidationRuleTests {
    func mint(
        _ receipt: AppReceipt = TestPKI.sampleReceipt,
        signer: ReceiptSigner? = nil,
        options: ReceiptMinter.Options = .init()
    ) throws -> [UInt8] {
        try TestPKI.mint(receipt, signer: signer, options: options)
    }

    @Test func validReceiptPassesEveryCheck() async throws {
        let result = try await TestPKI.validator(
            bundleIdentifier: "com.example.app",
            appVersion: "42",
            device: TestPKI.device
        ).validate(mint(), now: TestPKI.now)
        #expect(result.failures == [])
        #expect(result.isValid)
        #expect(result.certificatePath.count == 3)
        #expect(result.trustEvaluationTime == TestPKI.creation)
    }

    @Test(arguments: [
        ReceiptMinter.Options(style: .appStore, digest: .sha1),
        ReceiptMinter.Options(style: .appStore, digest: .sha256, signedAttributes: true),
        ReceiptMinter.Options(style: .xcode, digest: .sha256),
        ReceiptMinter.Options(style: .xcode, digest: .sha1, signedAttributes: true),
    ])
    func everyContainerStyleVerifies(options: ReceiptMinter.Options) async throws {
        let bytes = try mint(options: options)
        let result = try await TestPKI.validator(device: TestPKI.device).validate(bytes, now: TestPKI.now)
        #expect(result.failures == [])
        #expect(try AppReceipt(berEncoded: bytes) == TestPKI.sampleReceipt.withRawBundleIdentifier())
    }

    @Test func rejectsContentChangedAfterSigning() async throws {
        var bytes = try mint()
        let needle = Array("com.example.app".utf8)
        let offset = try #require(bytes.firstRange(of: needle)?.lowerBound)
        bytes[offset + 4] = UInt8(ascii: "f")  // com.fxample.app
        let result = try await TestPKI.validator().validate(bytes, now: TestPKI.now)
        #expect(result.receipt.bundleIdentifier == "com.fxample.app")
        #expect(result.failures == [.signatureInvalid])
    }

    @Test(arguments: [ReceiptMinter.Fault.corruptSignature, .alterContentAfterSigning])
    func rejectsFaultySignatures(fault: ReceiptMinter.Fault) async throws {
        var receipt = TestPKI.sampleReceipt
        receipt.otherAttributes = [ReceiptAttribute(type: 9999, value: [0x00, 0x00])]
        let bytes = try mint(receipt, options: .init(fault: fault))
        let result = try await TestPKI.validator().validate(bytes, now: TestPKI.now)
        #expect(result.failures == [.signatureInvalid])
    }

    @Test func rejectsSelfMadeRootWithApplesNames() async throws {
        let impostor = try TestCertificateAuthority(names: .appleLookalike)
        let bytes = try mint(signer: impostor.receiptSigner)
        // Default policy: only Apple's pinned root. The impostor root has Apple's names but not its fingerprint.
        let result = try await ReceiptValidator(cache: AppStoreTrustCache()).validate(bytes, now: TestPKI.now)
        #expect(result.failures == [.certificateUntrusted])
    }

    @Test func rejectsSignerWithoutReceiptSigningMarker() async throws {
        let ca = try TestCertificateAuthority(leafHasReceiptSigningMarker: false)
        let bytes = try mint(signer: ca.receiptSigner)
        let result = try await TestPKI.validator(anchors: [ca.root.certificate]).validate(bytes, now: TestPKI.now)
        #expect(result.failures == [.signerNotReceiptSigning])
    }

    @Test func rejectsIntermediateWithoutWWDRMarker() async throws {
        let ca = try TestCertificateAuthority(intermediateHasWWDRMarker: false)
        let bytes = try mint(signer: ca.receiptSigner)
        let result = try await TestPKI.validator(anchors: [ca.root.certificate]).validate(bytes, now: TestPKI.now)
        #expect(result.failures == [.certificateUntrusted])
    }

    @Test func rejectsWrongBundleIdentifier() async throws {
        let result = try await TestPKI.validator(bundleIdentifier: "com.example.other").validate(mint(), now: TestPKI.now)
        #expect(result.failures == [.bundleIDMismatch])
    }

    @Test func rejectsWrongAppVersion() async throws {
        let result = try await TestPKI.validator(appVersion: "43").validate(mint(), now: TestPKI.now)
        #expect(result.failures == [.appVersionMismatch])
    }

    @Test func rejectsWrongDevice() async throws {
        let other = DeviceIdentifier(bytes: Array(repeating: 0, count: 16))
        let result = try await TestPKI.validator(device: other).validate(mint(), now: TestPKI.now)
        #expect(result.failures == [.deviceHashMismatch])
    }

    @Test func deviceHashUsesMACAddressesToo() async throws {
        let mac = try DeviceIdentifier(parsing: "a4:83:e7:01:02:03")
        #expect(mac.bytes == [0xA4, 0x83, 0xE7, 0x01, 0x02, 0x03])
        let receipt = ReceiptMinter.settingDeviceHash(of: TestPKI.sampleReceipt, for: mac)
        let result = try await TestPKI.validator(device: mac).validate(mint(receipt), now: TestPKI.now)
        #expect(result.failures == [])
    }

    @Test func rejectsExpiredVolumePurchaseReceipt() async throws {
        var receipt = TestPKI.sampleReceipt
        receipt.environment = .productionVPP
        receipt.expirationDate = TestPKI.now.addingTimeInterval(-1)
        let result = try await TestPKI.validator().validate(mint(receipt), now: TestPKI.now)
        #expect(result.failures == [.receiptExpired])
        receipt.expirationDate = TestPKI.now.addingTimeInterval(1)
        #expect(try await TestPKI.validator().validate(mint(receipt), now: TestPKI.now).failures == [])
    }

    @Test func rejectsXcodeReceiptWithoutOptIn() async throws {
        let storeKit = try TestCertificateAuthority.storeKitStyleSigner()
        var receipt = TestPKI.sampleReceipt
        receipt.environment = .xcode
        let bytes = try mint(receipt, signer: storeKit, options: .init(style: .xcode))
        let refused = try await ReceiptValidator(cache: AppStoreTrustCache()).validate(bytes, now: TestPKI.now)
        #expect(refused.failures == [.xcodeReceiptNotAllowed])
        // Opting in by passing the signer as an anchor: the critical code-signing EKU must not fail the chain.
        let accepted = try await TestPKI.validator(anchors: [storeKit.identity.certificate])
            .validate(bytes, now: TestPKI.now)
        #expect(accepted.failures == [])
        // The flag alone trusts only Xcode's real StoreKit certificate, not any self-signed one.
        let flagOnly = try await ReceiptValidator(
            policy: ReceiptValidationPolicy(allowsXcodeReceipts: true),
            cache: AppStoreTrustCache()
        ).validate(bytes, now: TestPKI.now)
        #expect(flagOnly.failures == [.certificateUntrusted])
    }

    @Test func rejectsLeafExpiredAtCreationDate() async throws {
        let ca = try TestCertificateAuthority(
            leafValidity: DateInterval(start: Date(timeIntervalSince1970: 1_500_000_000), duration: 86_400 * 365)
        )
        let bytes = try mint(signer: ca.receiptSigner)
        let result = try await TestPKI.validator(anchors: [ca.root.certificate]).validate(bytes, now: TestPKI.now)
        #expect(result.failures == [.certificateExpired])
    }

    @Test func rejectsReceiptWithoutSignerCertificate() async throws {
        var signer = try TestPKI.ca.receiptSigner
        signer.certificates.removeFirst()
        let result = try await TestPKI.validator().validate(mint(signer: signer), now: TestPKI.now)
        // No signer certificate, no verified signature: the chain is never evaluated.
        #expect(result.failures == [.signatureInvalid])
        #expect(result.anchor == nil)
    }

    @Test func acceptsCertificatesInAnyOrder() async throws {
        var signer = try TestPKI.ca.receiptSigner
        signer.certificates.reverse()
        let result = try await TestPKI.validator().validate(mint(signer: signer), now: TestPKI.now)
        #expect(result.failures == [])
    }

    @Test func reportsEveryFailingCheck() async throws {
        var bytes = try mint()
        let offset = try #require(bytes.firstRange(of: Array("com.example.app".utf8))?.lowerBound)
        bytes[offset] = UInt8(ascii: "x")
        let result = try await TestPKI.validator(
            bundleIdentifier: "com.example.app",
            appVersion: "1",
            device: TestPKI.device
        ).validate(bytes, now: TestPKI.now)
        #expect(result.failures == [.bundleIDMismatch, .appVersionMismatch, .deviceHashMismatch, .signatureInvalid])
    }

    @Test func cachedChainIsStillCheckedAtEachReceiptsTime() async throws {
        let cache = AppStoreTrustCache()
        let ca = try TestCertificateAuthority(
            leafValidity: DateInterval(start: Date(timeIntervalSince1970: 1_690_000_000), duration: 86_400 * 365)
        )
        let validator = try TestPKI.validator(anchors: [ca.root.certificate], cache: cache)
        let fresh = try mint(signer: ca.receiptSigner)
        #expect(try await validator.validate(fresh, now: TestPKI.now).failures == [])
        #expect(cache.count.outcomes == 1)

        var late = TestPKI.sampleReceipt
        late.creationDate = Date(timeIntervalSince1970: 1_800_000_000)  // after the leaf expired
        let lateResult = try await validator.validate(mint(late, signer: ca.receiptSigner), now: TestPKI.now)
        #expect(lateResult.failures == [.certificateExpired])
        #expect(cache.count.outcomes == 1)  // same certificates: the cached outcome served both
    }

    @Test func fixedAndPresentTrustTimes() async throws {
        let bytes = try mint()
        let fixed = try TestPKI.validator(trustEvaluationTime: .fixed(Date(timeIntervalSince1970: 5_000_000_000)))
        #expect(try await fixed.validate(bytes, now: TestPKI.now).failures == [.certificateExpired])
        let present = try TestPKI.validator(trustEvaluationTime: .now)
        #expect(try await present.validate(bytes, now: TestPKI.now).failures == [])
    }
}
