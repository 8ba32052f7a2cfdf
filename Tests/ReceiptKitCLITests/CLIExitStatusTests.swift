import Foundation
import ReceiptKit
import Testing
import _ReceiptKitShared

/// Every command keeps the exit-status contract: 64 usage (numeric options included), 65 malformed input, 66
/// unreadable input, 73 unwritable output; 1 only for "decoded but invalid".
@Suite(.serialized)
struct CLIExitStatusTests {
    static let scratch: URL = {
        let url = CLITests.scratch.appendingPathComponent("exit-status")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func file(_ name: String, _ text: String) throws -> String {
        let url = Self.scratch.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("--version prints the build's version and exits 0")
    func version() async throws {
        let result = try await CLIRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == ReceiptKitVersion.string + "\n")
    }

    @Test("bench --measure ledger reads the receipt's transactions from a ledger; an unknown measure is a usage error")
    func benchLedger() async throws {
        let bench = try await CLIRunner.run([
            "bench", "--seconds", "0.05", "--measure", "ledger", "--anchor", CLITests.anchor, CLITests.sample,
        ])
        #expect(bench.status == 0, "\(bench.stderr)")
        let lines = bench.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        let header = try #require(lines.first)
        let row = try #require(lines.dropFirst().first)
        let column = try #require(header.firstIndex(of: "ledger read/s"))
        #expect(row.count == header.count)
        #expect((Int(row[column]) ?? 0) > 0, "\(row)")
        #expect(row.last == "valid")
        let unknown = try await CLIRunner.run(["bench", "--measure", "ledgers", CLITests.sample])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--measure takes parse, json, cached, uncached, ledger"))
    }

    @Test(arguments: ["nan", "inf", "-1", "0", "1e19", "3601"])
    func benchSecondsAreValidated(seconds: String) async throws {
        let bench = try await CLIRunner.run(["bench", "--seconds", seconds, CLITests.sample])
        #expect(bench.status == 64, "\(bench.stderr)")
        let trust = try await CLIRunner.run([
            "trust", "bench", "--seconds", seconds, "--chain", CLITests.anchor, "--anchor", CLITests.anchor,
        ])
        #expect(trust.status == 64, "\(trust.stderr)")
        #expect(trust.stderr.contains("--seconds"))
    }

    @Test(arguments: ["0", "-3", "100000"])
    func validateJobsAreBounded(jobs: String) async throws {
        let output = try await CLIRunner.run(["validate", "--jobs", jobs, CLITests.sample, CLITests.sample])
        #expect(output.status == 64, "\(output.stderr)")
    }

    @Test func appBundleTakesNoOtherInputs() async throws {
        let output = try await CLIRunner.run(["validate", "--app", "X.app", CLITests.sample])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--app"))
    }

    @Test func benchInputErrorsAreNotVerdicts() async throws {
        #expect(try await CLIRunner.run(["bench", "--seconds", "0.01", "/nonexistent/receipt"]).status == 66)
        let garbage = try Self.file("garbage.receipt", "not a receipt at all")
        #expect(try await CLIRunner.run(["bench", "--seconds", "0.01", garbage]).status == 65)
        #expect(try await CLIRunner.run(["bench", "--seconds", "0.01", "--anchor", garbage, CLITests.sample]).status == 65)
        #expect(try await CLIRunner.run(["bench", "--seconds", "0.01", "--anchor", "/nonexistent.cer", CLITests.sample]).status == 66)
    }

    @Test("mint receipt --count writes a population: one customer per receipt, ids suffixed, valid under the CA")
    func mintAPopulation() async throws {
        let ca = Self.scratch.appendingPathComponent("population-ca").path
        #expect(try await CLIRunner.run(["mint", "ca", "--out", ca]).status == 0)
        let folder = Self.scratch.appendingPathComponent("population").path
        let minted = try await CLIRunner.run([
            "mint", "receipt", "--ca", ca, "--bundle-id", "com.example.app", "--app-version", "1",
            "--purchase", "com.example.pro,1000", "--count", "3", "--out", folder,
        ])
        #expect(minted.status == 0, "\(minted.stderr)")
        #expect(minted.stdout == "wrote 3 receipts to \(folder)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
            "receipt-0000001.der", "receipt-0000002.der", "receipt-0000003.der",
        ])
        let second = try await CLIRunner.run(["inspect", "--json", folder + "/receipt-0000002.der"])
        let object = try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any]
        let purchase = (object?["in_app"] as? [[String: Any]])?.first
        #expect(purchase?["transaction_id"] as? String == "10000000002")
        #expect(purchase?["original_transaction_id"] as? String == "10000000002")
        let valid = try await CLIRunner.run([
            "validate", "--anchor", ca + "/root.cer", "--bundle-id", "com.example.app", folder + "/receipt-0000003.der",
        ])
        #expect(valid.status == 0, "\(valid.stdout)\(valid.stderr)")
        let none = try await CLIRunner.run(["mint", "receipt", "--ca", ca, "--count", "0", "--out", folder])
        #expect(none.status == 64 && none.stderr.contains("--count is 1 to 9,999,999, not 0"), "\(none.stderr)")
        let devices = try await CLIRunner.run([
            "mint", "receipt", "--ca", ca, "--count", "2", "--device-id", "hex:00", "--out", folder,
        ])
        #expect(devices.status == 64 && devices.stderr.contains("--count and --device-id"), "\(devices.stderr)")
    }

    @Test func mintErrorsMapToUsageMalformedUnreadableAndUnwritable() async throws {
        let ca = Self.scratch.appendingPathComponent("ca").path
        #expect(try await CLIRunner.run(["mint", "ca", "--out", ca]).status == 0)
        let out = Self.scratch.appendingPathComponent("minted.receipt").path
        for spec in ["com.example.pro,1,many", "com.example.pro,1,0", ",1", "com.example.pro,,1", "a,b,1,extra"] {
            let output = try await CLIRunner.run(["mint", "receipt", "--ca", ca, "--purchase", spec, "--out", out])
            #expect(output.status == 64, "\(spec): \(output.stderr)")
        }
        #expect(try await CLIRunner.run(["mint", "receipt", "--ca", ca, "--device-id", "nope", "--out", out]).status == 64)
        #expect(try await CLIRunner.run(["mint", "receipt", "--ca", "/nonexistent/ca", "--out", out]).status == 66)
        let broken = Self.scratch.appendingPathComponent("broken-ca")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        for name in ["root", "intermediate", "leaf"] {
            try Data("garbage".utf8).write(to: broken.appendingPathComponent("\(name).cer"))
            try Data("garbage".utf8).write(to: broken.appendingPathComponent("\(name).key.pem"))
        }
        #expect(try await CLIRunner.run(["mint", "receipt", "--ca", broken.path, "--out", out]).status == 65)
        let notJSON = try Self.file("spec.json", "{ not json")
        #expect(try await CLIRunner.run(["mint", "receipt", "--ca", ca, "--from", notJSON, "--out", out]).status == 65)
        #expect(try await CLIRunner.run(["mint", "receipt", "--ca", ca, "--from", "/nonexistent.json", "--out", out]).status == 66)
        let unwritable = "/nonexistent-dir/minted.receipt"
        #expect(try await CLIRunner.run(["mint", "receipt", "--ca", ca, "--out", unwritable]).status == 73)
        #expect(try await CLIRunner.run(["mint", "ca", "--out", "/dev/null/ca"]).status == 73)
        // And the happy path with every part of a spec.
        let minted = try await CLIRunner.run(["mint", "receipt", "--ca", ca, "--purchase", "com.example.pro,1000000000000009,3", "--out", out])
        #expect(minted.status == 0, "\(minted.stderr)")
        let json = try await CLIRunner.run(["inspect", "--json", out]).stdout
        #expect(json.contains("\"quantity\":\"3\""))
        #expect(json.contains("\"original_transaction_id\":\"1000000000000009\""))
    }

    @Test func standardInputObeysTheFileSizeCap() async throws {
        let tooLarge = Data(repeating: 0x30, count: ReceiptFile.maximumFileSize + 1)
        let output = try await CLIRunner.run(["inspect", "-"], stdin: tooLarge)
        #expect(output.status == 66, "\(output.stderr)")
        #expect(output.stderr.contains("larger than"))
    }

    @Test func validationJSONNamesTheAnchor() async throws {
        let output = try await CLIRunner.run(["validate", "--json", "--anchor", CLITests.anchor, CLITests.sample])
        #expect(output.status == 0)
        #expect(output.stdout.contains("\"anchor\":\"caller_anchor\""))
    }
}
