import Foundation
import ReceiptKit
import ReceiptKitTesting
import ReceiptTestSupport
import Testing

/// The README's library example, kept compiling and running (with a minted receipt in place of the app's).
struct ReadmeExampleTests {
    @Test func readmeExampleRuns() async throws {
        var receipt = TestPKI.sampleReceipt
        receipt = ReceiptMinter.settingDeviceHash(
            of: receipt,
            for: try DeviceIdentifier(parsing: "956328D9-CC6A-47F4-BE40-6953FB0AB6C7")
        )
        let receiptBytes = try ReceiptMinter.mint(receipt, signer: TestPKI.ca.receiptSigner)
        let output = Printed()
        let print: (Any) -> Void = { output.lines.append("\($0)") }

        // --- README ---
        let validator = ReceiptValidator(policy: ReceiptValidationPolicy(
            bundleIdentifier: "com.example.app",
            appVersion: "42",
            device: try DeviceIdentifier(parsing: "956328D9-CC6A-47F4-BE40-6953FB0AB6C7")))

        do {
            let result = try await validator.validate(receiptBytes)
            if result.isValid {
                for purchase in result.receipt.inAppPurchases { print(purchase.productIdentifier ?? "-") }
            } else {
                print(result.failures)            // e.g. [bundle_id_mismatch]
            }
        } catch {
            print(error.code)                     // typed throws: error is a ReceiptError, e.g. malformed_container
        }
        // --- end ---

        // Signed by the test CA, which the README's validator does not trust: the example reports why.
        #expect(output.lines == ["[certificate_untrusted]"])
    }
}

final class Printed {
    var lines: [String] = []
}
