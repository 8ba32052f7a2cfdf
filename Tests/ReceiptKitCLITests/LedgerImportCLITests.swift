import Foundation
import LedgerTestSupport
import NIOConcurrencyHelpers
import AppStorePKI
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
import ReceiptService
import Testing

@testable import receiptkit

/// `receiptkit ledger import`: receipts validated as the service would, recorded, refusals reported, and resumed by
/// hash.
@Suite(.serialized)
struct LedgerImportCLITests {
    /// A folder of receipts: `count` valid ones of the service's app and a copy of the first, two of another app, one
    /// signed by an authority nobody trusts, one file that is not a receipt; and the anchor to trust.
    struct Inputs {
        let directory: URL
        let receipts: URL
        let anchor: URL
        let ca: TestCertificateAuthority
        var valid: [[UInt8]] = []

        init(_ name: String, count: Int) throws {
            self.directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-import-\(name)-\(UUID())")
            self.receipts = self.directory.appendingPathComponent("receipts")
            try FileManager.default.createDirectory(at: self.receipts, withIntermediateDirectories: true)
            self.ca = try TestCertificateAuthority()
            self.anchor = self.directory.appendingPathComponent("root.cer")
            try CrashDurabilityTests.writeDER(self.ca.root.certificate, to: self.anchor)
            for index in 0..<count {
                let bytes = try CrashDurabilityTests.receipt(ca: self.ca, client: 1, index: index)
                self.valid.append(bytes)
                try Data(bytes).write(to: self.receipts.appendingPathComponent("valid-\(index).der"))
            }
            for index in 0..<2 {
                let bytes = try CrashDurabilityTests.receipt(ca: self.ca, client: 2, index: index, bundle: "com.example.other")
                try Data(bytes).write(to: self.receipts.appendingPathComponent("other-app-\(index).der"))
            }
            // The same receipt twice in one import: recorded once.
            try Data(self.valid[0]).write(to: self.receipts.appendingPathComponent("valid-0-copy.der"))
            let stranger = try CrashDurabilityTests.receipt(ca: try TestCertificateAuthority(), client: 3, index: 0)
            try Data(stranger).write(to: self.receipts.appendingPathComponent("untrusted.der"))
            try Data("not a receipt".utf8).write(to: self.receipts.appendingPathComponent("junk.der"))
        }

        func remove() { try? FileManager.default.removeItem(at: self.directory) }
    }

    static func reasons(_ stdout: String) throws -> [String: [String]] {
        var reasons: [String: [String]] = [:]
        for object in try BatchCLITests.objects(stdout) {
            let file = try #require(object["file"] as? String)
            #expect(object["valid"] as? Bool == false)
            #expect(object["receipt"] == nil, "a refusal carries no decoded receipt")
            reasons[URL(fileURLWithPath: file).lastPathComponent] = object["reasons"] as? [String]
        }
        return reasons
    }

    @Test("a directory imported with serve's settings: refusals as JSON lines with their reasons, a summary, and a second run skipping what is recorded")
    func importsRefusesAndResumes() async throws {
        let inputs = try Inputs("resume", count: 120)
        defer { inputs.remove() }
        let database = inputs.directory.appendingPathComponent("ledger.sqlite").path
        let settings = inputs.directory.appendingPathComponent("serve.json")
        try Data(#"{"allowed_bundle_ids": ["com.example.app"]}"#.utf8).write(to: settings)
        let arguments = [
            "ledger", "import", "--database", "sqlite:" + database, "--config", settings.path, "--anchor", inputs.anchor.path,
            "--jobs", "2", "--now", "2026-11-01T00:00:00Z",
        ]

        let first = try await CLIRunner.run(arguments + [inputs.receipts.path])
        #expect(first.status == 65, "the worst input is malformed: \(first.stderr)")
        #expect(try Self.reasons(first.stdout) == [
            "other-app-0.der": ["bundle_id_not_allowed"], "other-app-1.der": ["bundle_id_not_allowed"],
            "untrusted.der": ["certificate_untrusted"], "junk.der": ["malformed"],
        ])
        #expect(first.stderr.contains(
            "125 receipts: 120 imported, 1 already in the ledger, 4 not imported (2 refused, 1 invalid, 1 malformed, 0 unreadable)"),
            "\(first.stderr)")

        // What the ledger holds: every valid receipt, under its environment, first seen at --now.
        let hashes = inputs.valid.map(LedgerReceipt.hash(of:))
        do {
            let ledger = try await SQLiteLedger(path: database)
            #expect(try await ledger.recordedReceipts(among: hashes) == Set(hashes))
            let receipt = try AppReceipt(berEncoded: inputs.valid[7])
            let snapshot = try await ledger.snapshot(matching: LedgerQuery(receipt: LedgerReceipt(
                receipt, bytes: inputs.valid[7], environment: .production, seenAt: Date(timeIntervalSince1970: 0))))
            #expect(snapshot.transactions.map { $0.receiptHash } == [hashes[7]])
            await ledger.shutdown()
        }

        // Base64 lines on standard input: five recorded, three new.
        let ca = inputs.ca
        let fresh = try (0..<3).map { try CrashDurabilityTests.receipt(ca: ca, client: 4, index: $0) }
        let lines = (inputs.valid.prefix(5) + fresh).map { Data($0).base64EncodedString() }.joined(separator: "\n") + "\n"
        let second = try await CLIRunner.run(arguments + ["--lines"], stdin: Data(lines.utf8))
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.isEmpty)
        #expect(second.stderr.contains("8 receipts: 3 imported, 5 already in the ledger, 0 not imported"), "\(second.stderr)")

        let third = try await CLIRunner.run(arguments + [inputs.receipts.path])
        #expect(third.status == 65)
        #expect(third.stderr.contains("125 receipts: 0 imported, 121 already in the ledger, 4 not imported"), "\(third.stderr)")
    }

    @Test("usage: inputs are required, --ordered and a malformed --now are refused")
    func usage() async throws {
        let none = try await CLIRunner.run(["ledger", "import", "--database", "sqlite::memory:"])
        #expect(none.status == 64)
        #expect(none.stderr.contains("give receipt files or directories, --files-from or --lines"))
        let ordered = try await CLIRunner.run(["ledger", "import", "--ordered", "Examples"])
        #expect(ordered.status == 64)
        #expect(ordered.stderr.contains("--ordered applies to validate's output"))
        let now = try await CLIRunner.run(["ledger", "import", "--now", "yesterday", "Examples"])
        #expect(now.status == 64)
        #expect(now.stderr.contains("--now takes an RFC 3339 time, not 'yesterday'"))
    }

    @Test("a database that cannot be opened: exit 69 before any input is read")
    func databaseUnavailable() async throws {
        let output = try await CLIRunner.run([
            "ledger", "import", "--database", "postgres://nobody@127.0.0.1:9/none?sslmode=disable", "Examples",
        ])
        #expect(output.status == 69, "\(output.stderr)")
        #expect(output.stderr.contains("database postgres://nobody@127.0.0.1:9/none"), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    @Test("a ledger failure stops the import: exactly what was acknowledged is recorded, and a second run imports the rest")
    func ledgerFailureStopsAndResumes() async throws {
        let inputs = try Inputs("failure", count: 200)
        defer { inputs.remove() }
        let inner = try await SQLiteLedger(path: nil)
        try await inner.migrate()
        let writes = NIOLockedValueBox(0)
        let failing = ForwardingLedger(inner) { _ throws(LedgerError) in
            let count = writes.withLockedValue { count in
                count += 1
                return count
            }
            if count > 50 { throw LedgerError(.unavailable, "the database went away") }
        }
        var accepted = VerifyReceiptConfiguration()
        accepted.anchors = AppStoreTrustAnchors([inputs.ca.root.certificate])
        accepted.allowedBundleIdentifiers = ["com.example.app"]
        let files = inputs.valid.indices.map { index in
            ReceiptBatchSource.Input.path(inputs.receipts.appendingPathComponent("valid-\(index).der").path)
        }
        let run = LedgerImport(
            inputs: files, options: ReceiptBatchSource.Options(), jobs: 2, base64: nil, accepted: accepted,
            now: Date(timeIntervalSince1970: 1_790_000_000), chunkSize: 16)

        let tally = ImportTally(progressInPlace: false, total: nil)
        await run.run(into: failing, tally: tally)
        let stopped = tally.finish()
        #expect(stopped.failure?.code == .unavailable)
        #expect(stopped.counts.imported == 50)
        let hashes = inputs.valid.map(LedgerReceipt.hash(of:))
        #expect(try await inner.recordedReceipts(among: hashes).count == 50)

        let again = ImportTally(progressInPlace: false, total: nil)
        await run.run(into: inner, tally: again)
        let finished = again.finish()
        #expect(finished.failure == nil)
        #expect(finished.counts == ImportCounts(imported: 150, alreadyRecorded: 50))
        #expect(try await inner.recordedReceipts(among: hashes) == Set(hashes))
        await inner.shutdown()
    }

    @Test("chunks end at their byte bound: with receipts larger than it, one receipt a chunk, every one recorded once")
    func chunksBoundedByBytes() async throws {
        let inputs = try Inputs("bytes", count: 20)
        defer { inputs.remove() }
        let ledger = try await SQLiteLedger(path: nil)
        try await ledger.migrate()
        var accepted = VerifyReceiptConfiguration()
        accepted.anchors = AppStoreTrustAnchors([inputs.ca.root.certificate])
        let files = inputs.valid.indices.map { index in
            ReceiptBatchSource.Input.path(inputs.receipts.appendingPathComponent("valid-\(index).der").path)
        }
        // Every receipt is larger than the bound: each chunk holds one.
        let run = LedgerImport(
            inputs: files, options: ReceiptBatchSource.Options(), jobs: 1, base64: nil, accepted: accepted,
            now: Date(timeIntervalSince1970: 1_790_000_000), chunkSize: 16, chunkBytes: 1)
        let tally = ImportTally(progressInPlace: false, total: nil)
        await run.run(into: ledger, tally: tally)
        #expect(tally.finish().counts == ImportCounts(imported: 20, alreadyRecorded: 0))
        let hashes = inputs.valid.map(LedgerReceipt.hash(of:))
        #expect(hashes.count == 20)
        #expect(try await ledger.recordedReceipts(among: hashes) == Set(hashes))
        await ledger.shutdown()
    }
}
