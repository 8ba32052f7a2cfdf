import Foundation
import ReceiptKit
import ReceiptKitTesting
import ReceiptTestSupport
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
        #expect(!Self.inputs("FuzzDecode").isEmpty)
    }

    @Test(arguments: FuzzRegressionTests.inputs("FuzzMintRoundTrip"))
    func mintThenInspectReturnsTheSpec(path: String) throws {
        let spec = try JSONDecoder().decode(AppReceipt.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        let minted = try ReceiptMinter.mint(spec, signer: TestPKI.ca.receiptSigner)
        #expect(try AppReceipt(berEncoded: minted) == spec)
    }

    /// Hostile containers: each must be refused as malformed by both decoding and validation.
    @Test(arguments: FuzzRegressionTests.inputs("FuzzDecode") + FuzzRegressionTests.inputs("FuzzValidate"))
    func hostileReceiptsAreMalformed(path: String) async throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        expectReceiptError(.malformedContainer, "\(path)") { _ = try AppReceipt(berEncoded: bytes) }
        let validator = try TestPKI.validator()
        do throws(ReceiptError) {
            _ = try await validator.validate(bytes, now: TestPKI.now)
            Issue.record("\(path) validated")
        } catch {
            #expect(error.code == .malformedContainer, "\(path): \(error)")
        }
    }
}
