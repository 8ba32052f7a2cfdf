import AppStorePKI
import Foundation
import ReceiptKit
import ReceiptKitTesting

/// Fixed receipt content for harnesses that fuzz something else (the chain, the JSON spec).
public enum FuzzSeeds {
    public static let receipt: AppReceipt = ReceiptMinter.settingDeviceHash(
        of: AppReceipt(
            environment: .production,
            bundleIdentifier: "com.example.fuzz",
            appVersion: "1",
            opaqueValue: [1, 2, 3, 4, 5, 6, 7, 8],
            creationDate: FuzzEnvironment.now,
            inAppPurchases: [InAppPurchase(quantity: 1, productIdentifier: "com.example.fuzz.pro")]
        ),
        for: FuzzEnvironment.device
    )

    public static let sharedCache = AppStoreTrustCache(capacity: 64)
}
