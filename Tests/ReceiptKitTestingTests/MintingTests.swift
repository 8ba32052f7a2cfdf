import AppStorePKI
import Foundation
import PropertyBased
import ReceiptKit
import ReceiptKitTesting
import SwiftASN1
import ReceiptTestSupport
import Testing
import X509

/// `ReceiptKitTesting`: the test PKI, minting in every layout, faults, and agreement with an outside CMS verifier.
struct MintingTests {
    @Test func savedAuthorityLoadsAndStillSigns() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receiptkit-ca-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ca = try TestPKI.ca
        try ca.save(to: directory)
        for name in ["root", "intermediate", "leaf"] {
            for suffix in [".cer", ".pem", ".key.pem"] {
                #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(name + suffix).path))
            }
        }
        let pem = try String(contentsOf: directory.appendingPathComponent("leaf.key.pem"), encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))  // PKCS#8

        let loaded = try TestCertificateAuthority(contentsOf: directory)
        #expect(loaded.root.certificate == ca.root.certificate)
        #expect(loaded.leaf.certificate == ca.leaf.certificate)
        let rootFromPEM = try AppStoreTrustAnchors.certificates(
            fromDEROrPEM: Array(try Data(contentsOf: directory.appendingPathComponent("root.pem")))
        )
        #expect(rootFromPEM == [ca.root.certificate])
        let bytes = try ReceiptMinter.mint(TestPKI.sampleReceipt, signer: loaded.receiptSigner)
        #expect(try await TestPKI.validator(anchors: rootFromPEM).validate(bytes, now: TestPKI.now).failures == [])
    }

    @Test func truncatedOutputIsMalformed() throws {
        let bytes = try ReceiptMinter.mint(TestPKI.sampleReceipt, signer: TestPKI.ca.receiptSigner, options: .init(fault: .truncate))
        expectReceiptError(.malformedContainer) { _ = try AppReceipt(berEncoded: bytes) }
    }

    @Test(arguments: TestPKI.mintingOptions.indices)
    func everyLayoutValidates(index: Int) async throws {
        let options = TestPKI.mintingOptions[index]
        let bytes = try ReceiptMinter.mint(TestPKI.sampleReceipt, signer: TestPKI.ca.receiptSigner, options: options)
        let result = try await TestPKI.validator(device: TestPKI.device).validate(bytes, now: TestPKI.now)
        #expect(result.failures == [], "\(options)")
    }

    @Test(.enabled(if: OpenSSL.path != nil, Comment(rawValue: OpenSSL.skipMessage)), arguments: TestPKI.mintingOptions.indices)
    func openSSLAgreesEveryLayoutIsValidCMS(index: Int) async throws {
        let options = TestPKI.mintingOptions[index]
        let ca = try TestPKI.ca
        let bytes = try ReceiptMinter.mint(TestPKI.sampleReceipt, signer: ca.receiptSigner, options: options)
        let verdict = try await OpenSSL.verify(receipt: bytes, anchorPEM: try ca.root.certificate.serializeAsPEM().pemString)
        #expect(verdict.status == 0, "\(options): \(verdict.output)")
    }

    @Test(.enabled(if: OpenSSL.path != nil, Comment(rawValue: OpenSSL.skipMessage)))
    func openSSLAgreesOnStoreKitStyleAndOnFaults() async throws {
        let storeKit = try TestCertificateAuthority.storeKitStyleSigner()
        var receipt = TestPKI.sampleReceipt
        receipt.environment = .xcode
        let xcode = try ReceiptMinter.mint(receipt, signer: storeKit, options: .init(style: .xcode))
        let anchor = try storeKit.identity.certificate.serializeAsPEM().pemString
        #expect(try await OpenSSL.verify(receipt: xcode, anchorPEM: anchor).status == 0)

        let rootPEM = try TestPKI.ca.root.certificate.serializeAsPEM().pemString
        for fault in [ReceiptMinter.Fault.corruptSignature, .alterContentAfterSigning] {
            let bad = try ReceiptMinter.mint(TestPKI.sampleReceipt, signer: TestPKI.ca.receiptSigner, options: .init(fault: fault))
            #expect(try await OpenSSL.verify(receipt: bad, anchorPEM: rootPEM).status != 0, "\(fault)")
        }
    }

    // MARK: Property: inspect(mint(spec)) == spec, and the minted receipt validates for its own identity.

    static let purchases = zip(
        Gen.int64(in: 1...99).optional(),
        Gen.latin1.string(of: 1...40).optional(),
        Gen.number.string(of: 1...19).optional(),
        Gen.int64(in: 0...4_102_444_800_000).optional(),
        Gen.bool.optional(),
        Gen.int64(in: 0...Int64.max).optional()
    ).map { quantity, product, transaction, milliseconds, trial, lineItem in
        InAppPurchase(
            quantity: quantity,
            productIdentifier: product,
            transactionIdentifier: transaction,
            purchaseDate: milliseconds.map(Date.init(epochMilliseconds:)),
            originalTransactionIdentifier: transaction,
            expiresDate: milliseconds.map { Date(epochMilliseconds: $0 + 2_592_000_000) },
            webOrderLineItemIdentifier: lineItem,
            isTrialPeriod: trial,
            isInIntroOfferPeriod: trial.map { !$0 }
        )
    }.array(of: 0...4)

    static let identity = zip(
        Gen.element(of: ["Production", "ProductionSandbox", "ProductionVPP", "ProductionVPPSandbox", "Xcode", "Future"]),
        Gen.letterOrNumber.string(of: 1...30),
        Gen.latin1.string(of: 1...12),
        Gen.uint8(in: 0...255).array(of: 1...24),
        Gen.int64(in: 946_684_800_000...4_102_444_799_000),  // inside the test CA's validity
        Gen.int64(in: 0...4_102_444_800_000).optional()
    )

    static let layout = zip(Gen.element(of: Array(TestPKI.mintingOptions.indices)), Gen.bool)

    @Test func mintedReceiptsDecodeToTheirSpecAndValidate() async throws {
        let ca = try TestPKI.ca
        let now = Date(epochMilliseconds: 2_000_000_000_000)
        await propertyCheck(count: 60, input: Self.identity, Self.purchases, Self.layout) { identity, purchases, layout in
            let (chosenEnvironment, bundle, version, opaque, created, expiration) = identity
            let (chosenOption, macDevice) = layout
            let environment = chosenEnvironment ?? "Production"
            let optionIndex = chosenOption ?? 0
            let device = DeviceIdentifier(bytes: Array(repeating: UInt8(truncatingIfNeeded: created), count: macDevice ? 6 : 16))
            var spec = AppReceipt(
                environment: ReceiptEnvironment(rawValue: environment),
                appItemIdentifier: created % 1_000_000,
                bundleIdentifier: "com.example." + bundle,
                appVersion: version,
                opaqueValue: opaque,
                creationDate: Date(epochMilliseconds: created),
                originalPurchaseDate: Date(epochMilliseconds: created / 2),
                expirationDate: expiration.map(Date.init(epochMilliseconds:)),
                inAppPurchases: purchases
            )
            spec = ReceiptMinter.settingDeviceHash(of: spec, for: device)
            let bytes = try ReceiptMinter.mint(spec, signer: ca.receiptSigner, options: TestPKI.mintingOptions[optionIndex])

            let decoded = try AppReceipt(berEncoded: bytes)
            #expect(decoded == spec.withRawBundleIdentifier())
            let json = try JSONEncoder().encode(decoded)
            #expect(try JSONDecoder().decode(AppReceipt.self, from: json) == decoded)

            let validator = try TestPKI.validator(
                bundleIdentifier: "com.example." + bundle,
                appVersion: version,
                device: device,
                allowsXcode: environment == "Xcode"
            )
            let result = try await validator.validate(bytes, now: now)
            let expired = spec.expirationDate.map { $0 < now } ?? false
            #expect(result.failures == (expired ? [.receiptExpired] : []))
        }
    }
}
