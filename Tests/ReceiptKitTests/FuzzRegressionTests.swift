import Foundation
import ReceiptKit
import ReceiptKitTesting
import Testing

/// Every input a fuzzer ever failed on (Fuzz/Regressions/TARGET/*), replayed against the library with the check
/// its harness makes.
struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Regressions")

    static func inputs(_ target: String) -> [String] {
        let folder = directory.appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0).path }
    }

    @Test func thereAreRegressionInputs() {
        #expect(!Self.inputs("FuzzMintRoundTrip").isEmpty)
    }

    @Test(arguments: FuzzRegressionTests.inputs("FuzzMintRoundTrip"))
    func mintThenInspectReturnsTheSpec(path: String) throws {
        let spec = try JSONDecoder().decode(AppReceipt.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        let minted = try ReceiptMinter.mint(spec, signer: TestPKI.ca.receiptSigner)
        #expect(try AppReceipt(berEncoded: minted) == spec)
    }

    @Test(arguments: FuzzRegressionTests.inputs("FuzzDecode") + FuzzRegressionTests.inputs("FuzzValidate"))
    func hostileReceiptsDecodeOrThrowTyped(path: String) async throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        do {
            let result = try await TestPKI.validator().validate(bytes, now: TestPKI.now)
            _ = try JSONEncoder().encode(result.receipt)
        } catch let error as ReceiptError {
            #expect(!error.reason.isEmpty)
        }
    }
}
