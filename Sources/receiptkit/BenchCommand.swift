import AppStorePKI
import ArgumentParser
import Foundation
import ReceiptKit
import ReceiptLedger
import X509
import _ReceiptKitShared

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure receipts per second on one core: parse only, full validation with and without the chain cache, ledger reads.",
        discussion: """
            Each measurement is a warm loop in this process for --seconds. Full validation trusts Apple's root, \
            the given anchors and Xcode's StoreKit certificate, at each receipt's creation date. Build with \
            -c release for meaningful numbers. `ledger` records each receipt in an in-memory SQLite ledger without \
            a snapshot cache and measures the /verifyReceipt read of its transactions (one snapshot statement, its \
            rows read back into records).
            """
    )

    @Option(help: "Seconds per measurement.")
    var seconds: Double = 2

    @Option(name: .customLong("anchor"), help: "An extra trusted anchor (DER or PEM; repeatable).")
    var anchors: [String] = []

    @Option(help: "What to measure: any of parse, json, cached, uncached, ledger, comma-separated.")
    var measure: String = "parse,cached,uncached"

    @Argument(help: "Receipt files.")
    var inputs: [String]

    func validate() throws {
        try Self.validate(seconds: self.seconds)
        let unknown = Set(self.phases).subtracting(["parse", "json", "cached", "uncached", "ledger"])
        guard unknown.isEmpty else { throw ValidationError("--measure takes parse, json, cached, uncached, ledger") }
    }

    var phases: [String] {
        self.measure.split(separator: ",").map { String($0) }
    }

    /// `--seconds` must be a finite number of seconds in (0, 3600]: NaN, infinities, negatives and huge values are
    /// usage errors, not a crash when the budget is computed.
    static func validate(seconds: Double) throws {
        guard seconds.isFinite, seconds > 0, seconds <= 3600 else {
            throw ValidationError("--seconds takes a number of seconds in (0, 3600], not \(seconds)")
        }
    }

    func run() async throws {
        let anchorCertificates = try AnchorFiles.certificates(self.anchors)
        let policy = ReceiptValidationPolicy(
            anchors: AppStoreTrustAnchors(anchorCertificates),
            allowsXcodeReceipts: true
        )
        let cached = ReceiptValidator(policy: policy, cache: AppStoreTrustCache())
        let uncached = ReceiptValidator(policy: policy, cache: nil)
        let now = Date()
        let phases = self.phases
        print(
            "file\tparse/s\t" + (phases.contains("json") ? "json/s\t" : "") + "validate(cache)/s\tvalidate(no cache)/s\t"
                + (phases.contains("ledger") ? "ledger read/s\t" : "") + "verdict")
        for path in self.inputs {
            let bytes: [UInt8]
            let verdict: ReceiptValidationResult
            let contents: [UInt8]
            do { contents = try ReceiptFile.contents(atPath: path) } catch { throw InputFailure(error).reported(subject: path) }
            do {
                bytes = try ReceiptInput.normalized(contents)
                verdict = try await cached.validate(bytes, now: now)
            } catch {
                throw InputFailure(error).reported(subject: path)
            }
            var parse = "-"
            var full = "-"
            var cold = "-"
            if phases.contains("parse") {
                parse = String(Int(try Self.rate(seconds: self.seconds) { _ = try AppReceipt(berEncoded: bytes) }))
            }
            var json: String?
            if phases.contains("json") {
                let receipt = verdict.receipt
                json = String(Int(try Self.rate(seconds: self.seconds) { _ = receipt.verifyReceiptJSON() }))
            }
            if phases.contains("cached") {
                full = String(Int(try await Self.rate(seconds: self.seconds) { _ = try await cached.validate(bytes, now: now) }))
            }
            if phases.contains("uncached") {
                cold = String(Int(try await Self.rate(seconds: self.seconds) { _ = try await uncached.validate(bytes, now: now) }))
            }
            var ledger: String?
            if phases.contains("ledger") {
                ledger = String(Int(try await Self.ledgerRate(verdict.receipt, bytes: bytes, seconds: self.seconds, now: now)))
            }
            let name = (path as NSString).lastPathComponent
            let label = verdict.isValid ? "valid" : verdict.failures.map(\.code).joined(separator: ",")
            print("\(name)\t\(parse)\t" + (json.map { $0 + "\t" } ?? "") + "\(full)\t\(cold)\t" + (ledger.map { $0 + "\t" } ?? "") + label)
        }
    }

    /// Snapshot reads per second of `receipt`'s transactions from an in-memory SQLite ledger that keeps none.
    static func ledgerRate(_ receipt: AppReceipt, bytes: [UInt8], seconds: Double, now: Date) async throws -> Double {
        let ledger = try await SQLiteLedger(path: nil, snapshotCacheBytes: 0)
        do {
            try await ledger.migrate()
            let entry = LedgerReceipt(receipt, bytes: bytes, environment: .production, seenAt: now)
            try await ledger.record(entry)
            let query = LedgerQuery(receipt: entry)
            let rate = try await Self.rate(seconds: seconds) { _ = try await ledger.snapshot(matching: query) }
            await ledger.shutdown()
            return rate
        } catch {
            await ledger.shutdown()
            throw error
        }
    }

    static func rate(seconds: Double, _ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let budget = Duration.milliseconds(Int64(seconds * 1000))
        let start = clock.now
        var iterations = 0
        while clock.now - start < budget {
            for _ in 0..<16 { try body() }
            iterations += 16
        }
        return Double(iterations) / DurationConversion.seconds(clock.now - start)
    }

    static func rate(seconds: Double, _ body: () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let budget = Duration.milliseconds(Int64(seconds * 1000))
        let start = clock.now
        var iterations = 0
        while clock.now - start < budget {
            for _ in 0..<16 { try await body() }
            iterations += 16
        }
        return Double(iterations) / DurationConversion.seconds(clock.now - start)
    }
}
