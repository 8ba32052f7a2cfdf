package import AppStorePKI
package import Foundation
package import ReceiptKit
package import ReceiptKitTesting
package import X509

/// Test hierarchies, generated once per test process (RSA key generation is the slow part).
package enum TestPKI {
    package static let creation = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z
    package static let now = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15

    private static let result: Result<TestCertificateAuthority, any Error> = Result { try TestCertificateAuthority() }
    package static var ca: TestCertificateAuthority { get throws { try result.get() } }

    package static let device = DeviceIdentifier(bytes: [
        0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B,
    ])

    /// A receipt with every documented field set, its hash computed for ``device``.
    package static var sampleReceipt: AppReceipt {
        let receipt = AppReceipt(
            environment: .production,
            appItemIdentifier: 1_234_567_890,
            bundleIdentifier: "com.example.app",
            appVersion: "42",
            opaqueValue: [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08],
            ageRating: "4+",
            creationDate: creation,
            downloadIdentifier: 77,
            versionExternalIdentifier: 9_000_001,
            originalPurchaseDate: Date(timeIntervalSince1970: 1_600_000_000),
            originalAppVersion: "1.0",
            inAppPurchases: [
                InAppPurchase(
                    quantity: 1,
                    productIdentifier: "com.example.app.monthly",
                    transactionIdentifier: "1000000000000001",
                    purchaseDate: Date(timeIntervalSince1970: 1_690_000_000),
                    originalTransactionIdentifier: "1000000000000001",
                    originalPurchaseDate: Date(timeIntervalSince1970: 1_690_000_000),
                    productType: 3,
                    expiresDate: Date(timeIntervalSince1970: 1_692_592_000),
                    webOrderLineItemIdentifier: 1_000_000_123,
                    isTrialPeriod: false,
                    isInIntroOfferPeriod: true,
                    promotionalOfferIdentifier: "SPRING"
                )
            ]
        )
        return ReceiptMinter.settingDeviceHash(of: receipt, for: device)
    }

    /// `receipt` (the sample by default) minted by ``ca`` (or `signer`) with `options`.
    package static func mint(
        _ receipt: AppReceipt = TestPKI.sampleReceipt,
        signer: ReceiptSigner? = nil,
        options: ReceiptMinter.Options = .init()
    ) throws -> [UInt8] {
        try ReceiptMinter.mint(receipt, signer: signer ?? ca.receiptSigner, options: options)
    }

    package static func validator(
        anchors: [Certificate]? = nil,
        bundleIdentifier: String? = nil,
        appVersion: String? = nil,
        device: DeviceIdentifier? = nil,
        allowsXcode: Bool = false,
        trustEvaluationTime: TrustEvaluationTime = .receiptCreationDate,
        cache: AppStoreTrustCache? = AppStoreTrustCache()
    ) throws -> ReceiptValidator {
        ReceiptValidator(
            policy: ReceiptValidationPolicy(
                anchors: AppStoreTrustAnchors(try anchors ?? [ca.root.certificate]),
                allowsXcodeReceipts: allowsXcode,
                bundleIdentifier: bundleIdentifier,
                appVersion: appVersion,
                device: device,
                trustEvaluationTime: trustEvaluationTime
            ),
            cache: cache
        )
    }

    /// Every layout the minter makes: App Store and Xcode style, SHA-1 and SHA-256, with and without signed
    /// attributes, either signature algorithm identifier.
    package static let mintingOptions: [ReceiptMinter.Options] = {
        var options: [ReceiptMinter.Options] = []
        for style in [ReceiptMinter.Style.appStore, .xcode] {
            for digest in [ReceiptMinter.Digest.sha1, .sha256] {
                for signedAttributes in [false, true] {
                    for algorithm in [ReceiptMinter.SignerAlgorithm.rsaEncryption, .digestWithRSAEncryption] {
                        options.append(
                            .init(style: style, digest: digest, signedAttributes: signedAttributes, signerAlgorithm: algorithm)
                        )
                    }
                }
            }
        }
        return options
    }()
}
