package import Foundation
package import ReceiptKit
package import ReceiptKitTesting
import X509

/// The test CA and receipts minted with it, for the ledger and service tests.
package enum ServiceTestPKI {
    package static let now = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15, the service's pinned clock

    private static let result: Result<TestCertificateAuthority, any Error> = Result { try TestCertificateAuthority() }
    package static var ca: TestCertificateAuthority { get throws { try result.get() } }

    /// A subscription purchase: `transaction` renews `original`, bought `day` days after 2023-01-01.
    package static func purchase(
        _ transaction: String, original: String, product: String = "com.example.monthly", day: Int,
        subscription: Bool = true
    ) -> InAppPurchase {
        let purchased = Date(timeIntervalSince1970: 1_672_531_200 + Double(day) * 86_400)
        return InAppPurchase(
            quantity: 1,
            productIdentifier: product,
            transactionIdentifier: transaction,
            purchaseDate: purchased,
            originalTransactionIdentifier: original,
            originalPurchaseDate: purchased,
            productType: subscription ? 3 : 1,
            expiresDate: subscription ? purchased.addingTimeInterval(30 * 86_400) : nil,
            isTrialPeriod: false
        )
    }

    package static func receipt(
        bundle: String = "com.example.app",
        environment: ReceiptEnvironment = .production,
        createdDay: Int = 100,
        purchases: [InAppPurchase] = [purchase("1000", original: "1000", day: 1)]
    ) -> AppReceipt {
        AppReceipt(
            environment: environment,
            appItemIdentifier: 1_234_567_890,
            bundleIdentifier: bundle,
            appVersion: "42",
            opaqueValue: [1, 2, 3, 4, 5, 6, 7, 8],
            creationDate: Date(timeIntervalSince1970: 1_672_531_200 + Double(createdDay) * 86_400),
            originalPurchaseDate: Date(timeIntervalSince1970: 1_600_000_000),
            originalAppVersion: "1.0",
            inAppPurchases: purchases
        )
    }

    package static func mint(_ receipt: AppReceipt, options: ReceiptMinter.Options = .init()) throws -> [UInt8] {
        try ReceiptMinter.mint(receipt, signer: ca.receiptSigner, options: options)
    }

    private static let storeKit: Result<ReceiptSigner, any Error> = Result {
        try TestCertificateAuthority.storeKitStyleSigner()
    }
    /// A self-signed signer shaped like Xcode's StoreKit certificate.
    package static var storeKitSigner: ReceiptSigner { get throws { try storeKit.get() } }

    package static func mintXcode(_ receipt: AppReceipt) throws -> [UInt8] {
        var receipt = receipt
        receipt.environment = .xcode
        return try ReceiptMinter.mint(receipt, signer: storeKitSigner, options: .init(style: .xcode))
    }
}
