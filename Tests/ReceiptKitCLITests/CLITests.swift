import Foundation
import ReceiptKit
import ReceiptKitTesting
import Testing

/// The `receiptkit` contract: stdout, stderr and exit status of the built binary.
@Suite(.serialized)
struct CLITests {
    static let sample = "Examples/sample.receipt"
    static let anchor = "Examples/TestRoot.cer"

    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("receiptkit-cli-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func readmeQuickStartSaysValid() async throws {
        let output = try await CLIRunner.run(["validate", "--anchor", Self.anchor, Self.sample])
        #expect(output.stdout == "VALID\n")
        #expect(output.stderr == "")
        #expect(output.status == 0)
    }

    @Test func sampleWithoutItsAnchorIsUntrusted() async throws {
        let output = try await CLIRunner.run(["validate", Self.sample])
        #expect(output.stdout == "INVALID: certificate_untrusted\n")
        #expect(output.status == 1)
    }

    @Test func failingChecksAreListed() async throws {
        let output = try await CLIRunner.run([
            "validate", "--anchor", Self.anchor, "--bundle-id", "com.other", "--app-version", "9",
            "--device-id", "00:11:22:33:44:55", Self.sample,
        ])
        #expect(output.stdout == "INVALID: bundle_id_mismatch app_version_mismatch device_hash_mismatch\n")
        #expect(output.status == 1)
    }

    @Test func sampleMatchesItsDocumentedIdentity() async throws {
        let output = try await CLIRunner.run([
            "validate", "--anchor", Self.anchor, "--bundle-id", "com.example.receiptkit", "--app-version", "1.0",
            "--device-id", "3F2504E0-4F89-11D3-9A0C-0305E82C3301", Self.sample,
        ])
        #expect(output.stdout == "VALID\n")
        #expect(output.status == 0)
    }

    @Test func jsonVerdictHasTheDocumentedShape() async throws {
        let output = try await CLIRunner.run(["validate", "--json", "--anchor", Self.anchor, Self.sample])
        #expect(output.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == true)
        #expect((object["reasons"] as? [String])?.isEmpty == true)
        #expect(object["environment"] as? String == "Production")
        let receipt = try #require(object["receipt"] as? [String: Any])
        #expect(receipt["bundle_id"] as? String == "com.example.receiptkit")
        #expect(receipt["receipt_creation_date"] as? String == "2026-01-15 10:00:00 Etc/GMT")
        #expect(receipt["receipt_creation_date_ms"] as? String == "1768471200000")
        #expect(receipt["receipt_creation_date_pst"] as? String == "2026-01-15 02:00:00 America/Los_Angeles")
        let purchases = try #require(receipt["in_app"] as? [[String: Any]])
        #expect(purchases.first?["product_id"] as? String == "com.example.pro")
        #expect(purchases.first?["quantity"] as? String == "1")
    }

    @Test func malformedInputExits65() async throws {
        let path = try Self.write(Array("definitely not a receipt".utf8), "garbage.der")
        let output = try await CLIRunner.run(["validate", path])
        #expect(output.status == 65)
        #expect(output.stdout == "")
        // Text that does not start with a DER SEQUENCE is read as base64, and this is not base64.
        #expect(output.stderr.contains(": invalid_base64: "))

        let truncated = try Self.write(Array(try Data(contentsOf: CLIRunner.packageRoot.appendingPathComponent(Self.sample)).prefix(100)), "truncated.der")
        let json = try await CLIRunner.run(["validate", "--json", truncated])
        #expect(json.status == 65)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == false)
        #expect(object["reasons"] as? [String] == ["malformed"])
        #expect((object["error"] as? [String: Any])?["code"] as? String == "malformed_container")
    }

    @Test func unreadableFileExits66() async throws {
        let output = try await CLIRunner.run(["validate", "/nonexistent/receipt"])
        #expect(output.status == 66)
        #expect(output.stderr.contains("unreadable_file"))
        let inspect = try await CLIRunner.run(["inspect", "/nonexistent/receipt"])
        #expect(inspect.status == 66)
    }

    @Test(arguments: [
        ["validate"],
        ["validate", "--at", "yesterday", "x"],
        ["validate", "--device-id", "not-a-device", "x"],
        ["validate", "--jobs", "0", "x"],
        ["frobnicate"],
    ])
    func usageErrorsExit64(arguments: [String]) async throws {
        let output = try await CLIRunner.run(arguments)
        #expect(output.status == 64)
        #expect(output.stdout == "")
        #expect(!output.stderr.isEmpty)
    }

    @Test func severalInputsGiveJSONLinesAndTheWorstStatus() async throws {
        let garbage = try Self.write([0x30, 0x03, 0x02, 0x01], "short.der")
        let output = try await CLIRunner.run(["validate", "--jobs", "2", "--anchor", Self.anchor, Self.sample, garbage, Self.sample])
        #expect(output.status == 65)
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        var byFile: [String: [String: Any]] = [:]
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            byFile[try #require(object["file"] as? String), default: object] = object
        }
        #expect(byFile[Self.sample]?["valid"] as? Bool == true)
        #expect(byFile[garbage]?["reasons"] as? [String] == ["malformed"])
        #expect(output.stderr.contains("3 receipts: 2 valid, 0 invalid, 1 malformed, 0 unreadable"))
    }

    @Test func standardInputAndBase64AreAccepted() async throws {
        let bytes = try Data(contentsOf: CLIRunner.packageRoot.appendingPathComponent(Self.sample))
        let base64 = Data(bytes.base64EncodedString(options: .lineLength76Characters).utf8)
        let output = try await CLIRunner.run(["validate", "--anchor", Self.anchor, "-"], stdin: base64)
        #expect(output.stdout == "VALID\n")
        let explicit = try await CLIRunner.run(["inspect", "--base64", "--json", "-"], stdin: base64)
        #expect(explicit.status == 0)
        #expect(explicit.stdout.contains("\"bundle_id\":\"com.example.receiptkit\""))
    }

    @Test func inspectPrintsASummaryAndPurchaseTable() async throws {
        let output = try await CLIRunner.run(["inspect", Self.sample])
        #expect(output.status == 0)
        #expect(output.stdout.contains("Bundle ID:"))
        #expect(output.stdout.contains("com.example.receiptkit"))
        #expect(output.stdout.contains("com.example.pro"))
        #expect(output.stdout.contains("1000000000000001"))
    }

    @Test func inspectJSONRoundTripsThroughMint() async throws {
        let ca = Self.scratch.appendingPathComponent("ca").path
        #expect(try await CLIRunner.run(["mint", "ca", "--out", ca]).status == 0)
        let json = try await CLIRunner.run(["inspect", "--json", Self.sample]).stdout
        let spec = try Self.write(Array(json.utf8), "spec.json")
        let minted = Self.scratch.appendingPathComponent("reminted.receipt").path
        let mint = try await CLIRunner.run(["mint", "receipt", "--ca", ca, "--from", spec, "--out", minted])
        #expect(mint.status == 0, "\(mint.stderr)")
        #expect(try await CLIRunner.run(["inspect", "--json", minted]).stdout == json)
        let verdict = try await CLIRunner.run(["validate", "--anchor", ca + "/root.cer", "--bundle-id", "com.example.receiptkit", minted])
        #expect(verdict.stdout == "VALID\n")
    }

    @Test func validatesAnAppBundle() async throws {
        let app = Self.scratch.appendingPathComponent("Sample.app/Contents")
        try FileManager.default.createDirectory(
            at: app.appendingPathComponent("_MASReceipt"),
            withIntermediateDirectories: true
        )
        let plist: [String: Any] = ["CFBundleIdentifier": "com.example.receiptkit", "CFBundleShortVersionString": "1.0"]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: app.appendingPathComponent("Info.plist"))
        try Data(contentsOf: CLIRunner.packageRoot.appendingPathComponent(Self.sample))
            .write(to: app.appendingPathComponent("_MASReceipt/receipt"))
        let bundle = app.deletingLastPathComponent().path
        let output = try await CLIRunner.run(["validate", "--anchor", Self.anchor, "--app", bundle])
        #expect(output.stdout == "VALID\n")
        #expect(output.status == 0)

        try PropertyListSerialization.data(
            fromPropertyList: ["CFBundleIdentifier": "com.example.other", "CFBundleShortVersionString": "1.0"],
            format: .binary,
            options: 0
        ).write(to: app.appendingPathComponent("Info.plist"))
        let mismatch = try await CLIRunner.run(["validate", "--anchor", Self.anchor, "--app", bundle])
        #expect(mismatch.stdout == "INVALID: bundle_id_mismatch\n")
        #expect(mismatch.status == 1)
    }
}
