import Foundation
import ReceiptKit
import Testing

@testable import receiptkit

/// `receiptkit validate` over many inputs: directories, --files-from, --lines, --ordered, and the JSON line form.
@Suite(.serialized)
struct BatchCLITests {
    static let sample = CLITests.sample
    static let anchor = CLITests.anchor

    /// A fresh scratch folder for one test.
    static func folder(_ name: String) throws -> URL {
        let url = CLITests.scratch.appendingPathComponent("batch-\(name)")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static var sampleBytes: Data {
        get throws { try Data(contentsOf: CLIRunner.packageRoot.appendingPathComponent(Self.sample)) }
    }

    static func objects(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    static func files(_ objects: [[String: Any]]) -> [String] {
        objects.compactMap { $0["file"] as? String }
    }

    /// The tree: receipts as .der, .receipt, .b64 and `receipt`, nested; skipped: other extensions, hidden files, a
    /// FIFO, and a symbolic link to a directory (which also holds a receipt); read: a symbolic link to a file.
    @Test func directoriesAreWalkedRecursivelyWithTheDocumentedRules() async throws {
        let root = try Self.folder("tree")
        let bytes = try Self.sampleBytes
        let nested = root.appendingPathComponent("a/b")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try bytes.write(to: root.appendingPathComponent("one.der"))
        try bytes.write(to: root.appendingPathComponent("a/two.receipt"))
        try Data(bytes.base64EncodedString().utf8).write(to: nested.appendingPathComponent("three.B64"))
        try bytes.write(to: nested.appendingPathComponent("receipt"))
        try bytes.write(to: root.appendingPathComponent("notes.txt"))
        try bytes.write(to: root.appendingPathComponent(".hidden.der"))
        #expect(mkfifo(root.appendingPathComponent("pipe.der").path, 0o600) == 0)
        let outside = try Self.folder("tree-outside")
        try bytes.write(to: outside.appendingPathComponent("outside.der"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("linked-dir.der"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("linked-file.der"),
            withDestinationURL: outside.appendingPathComponent("outside.der")
        )

        let output = try await CLIRunner.run(["validate", "--anchor", Self.anchor, root.path])
        #expect(output.status == 0, "\(output.stderr)")
        let files = Set(Self.files(try Self.objects(output.stdout)))
        let path = root.path
        #expect(
            files == [
                "\(path)/one.der", "\(path)/a/two.receipt", "\(path)/a/b/three.B64", "\(path)/a/b/receipt",
                "\(path)/linked-file.der",
            ]
        )
        #expect(output.stderr.contains("receiptkit: 5 receipts: 5 valid, 0 invalid, 0 malformed, 0 unreadable in "))

        // --all-files reads every regular file (notes.txt too), still not hidden ones, FIFOs or linked directories.
        let all = try await CLIRunner.run(["validate", "--all-files", "--anchor", Self.anchor, root.path])
        #expect(Set(Self.files(try Self.objects(all.stdout))) == files.union(["\(path)/notes.txt"]))
    }

    @Test func filesFromReadsListsFromFilesAndStandardInput() async throws {
        let root = try Self.folder("list")
        let bytes = try Self.sampleBytes
        var paths: [String] = []
        for index in 0..<30 {
            let url = root.appendingPathComponent("r\(index).bin")  // any name: listed paths are always read
            try bytes.write(to: url)
            paths.append(url.path)
        }
        let missing = root.appendingPathComponent("missing.der").path
        let list = root.appendingPathComponent("list.txt")
        // CRLF line ends and blank lines are tolerated.
        try Data((paths + ["", missing]).joined(separator: "\r\n").utf8).write(to: list)

        let fromFile = try await CLIRunner.run(["validate", "--ordered", "--jobs", "3", "--anchor", Self.anchor, "--files-from", list.path])
        #expect(fromFile.status == 66)
        let objects = try Self.objects(fromFile.stdout)
        #expect(Self.files(objects) == paths + [missing])
        #expect(objects.last?["reasons"] as? [String] == ["unreadable"])
        #expect((objects.last?["error"] as? [String: Any])?["code"] as? String == "unreadable_file")
        #expect(fromFile.stderr.contains("receiptkit: 31 receipts: 30 valid, 0 invalid, 0 malformed, 1 unreadable in "))

        let nul = Data((paths.prefix(3).joined(separator: "\0") + "\0").utf8)
        let fromStdin = try await CLIRunner.run(["validate", "--ordered", "--null", "--anchor", Self.anchor, "--files-from", "-"], stdin: nul)
        #expect(fromStdin.status == 0)
        #expect(Self.files(try Self.objects(fromStdin.stdout)) == Array(paths.prefix(3)))
    }

    @Test func linesAreBase64ReceiptsNumberedInTheOutput() async throws {
        let line = try Self.sampleBytes.base64EncodedString()
        let text = [line, "", line, "not base64!", line].joined(separator: "\n") + "\n"
        let output = try await CLIRunner.run(["validate", "--lines", "--ordered", "--anchor", Self.anchor], stdin: Data(text.utf8))
        #expect(output.status == 65)
        let objects = try Self.objects(output.stdout)
        #expect(objects.map { $0["line"] as? Int } == [1, 3, 4, 5])
        #expect(Self.files(objects) == ["-", "-", "-", "-"])
        #expect(objects.map { $0["valid"] as? Bool } == [true, true, false, true])
        #expect((objects[2]["error"] as? [String: Any])?["code"] as? String == "invalid_base64")
        #expect(output.stderr.contains("receiptkit: 4 receipts: 3 valid, 0 invalid, 1 malformed, 0 unreadable in "))
    }

    @Test func orderedOutputFollowsTheInputOrder() async throws {
        let root = try Self.folder("ordered")
        let bytes = try Self.sampleBytes
        var arguments = ["validate", "--ordered", "--jobs", "4", "--anchor", Self.anchor]
        var expected: [String] = []
        for index in 0..<200 {
            // Mix valid receipts with instantly failing garbage so completion order differs from input order.
            let url = root.appendingPathComponent("r\(index).der")
            try (index % 3 == 0 ? Data([0x30, 0x03, 0x02, 0x01]) : bytes).write(to: url)
            arguments.append(url.path)
            expected.append(url.path)
        }
        let output = try await CLIRunner.run(arguments)
        #expect(Self.files(try Self.objects(output.stdout)) == expected)
        #expect(output.status == 65)
    }

    /// Two jobs write their chunks outside the batch's lock: every input still gives exactly one whole line.
    @Test func twoJobsWriteEveryLineWholeAndOnce() async throws {
        let root = try Self.folder("two-jobs")
        let bytes = try Self.sampleBytes
        var expected: Set<String> = []
        for index in 0..<400 {
            // A third garbage: its short lines end chunks at other places than the receipts' long ones.
            let url = root.appendingPathComponent("r\(index).der")
            try (index % 3 == 0 ? Data([0x30, 0x03, 0x02, 0x01]) : bytes).write(to: url)
            expected.insert(url.path)
        }
        let output = try await CLIRunner.run(["validate", "--json", "--jobs", "2", "--anchor", Self.anchor, root.path])
        #expect(output.status == 65)
        #expect(output.stdout.utf8.count > 4 * 64 * 1024, "the output spans several chunks")
        let objects = try Self.objects(output.stdout)  // every line parses alone: none torn or interleaved
        let files = Self.files(objects)
        #expect(files.count == 400)
        #expect(Set(files) == expected)
        #expect(objects.filter { $0["valid"] as? Bool == true }.count == 266)
        #expect(output.stderr.contains("receiptkit: 400 receipts: 266 valid, 0 invalid, 134 malformed, 0 unreadable in "))
    }

    /// A write that fails (a full disk) is reported once, the batch still counts every input, and the exit status
    /// says the output could not be made.
    @Test func aFailedOutputWriteExitsWithCannotCreate() async throws {
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else {
            Issue.record("/dev/full is missing")
            return
        }
        let root = try Self.folder("full")
        let bytes = try Self.sampleBytes
        for index in 0..<60 {
            try bytes.write(to: root.appendingPathComponent("r\(index).der"))
        }
        let output = try await CLIRunner.run(["validate", "--json", "--jobs", "2", "--anchor", Self.anchor, root.path], stdout: full)
        #expect(output.status == 73)
        #expect(output.stderr.contains("receiptkit: 60 receipts: 60 valid, 0 invalid, 0 malformed, 0 unreadable in "))
        let failures = output.stderr.components(separatedBy: "receiptkit: standard output: write failed: No space left on device")
        #expect(failures.count == 2, "reported exactly once: \(output.stderr)")
    }

    @Test func usageErrorsAreRefused() async throws {
        let cases: [[String]] = [
            ["validate", "--files-from", "-", "-"],  // standard input twice
            ["validate", "--lines", "--files-from", "-"],  // --lines reads standard input too
            ["validate", "--null", Self.sample],  // --null without a list
            ["validate", "--app", "X.app", "--lines"],
        ]
        for arguments in cases {
            let output = try await CLIRunner.run(arguments)
            #expect(output.status == 64, "\(arguments)")
        }
    }

    @Test func unreadableListsAreReportedInPlace() async throws {
        let root = try Self.folder("lists")
        let output = try await CLIRunner.run(["validate", "--files-from", root.appendingPathComponent("absent.txt").path])
        #expect(output.status == 66)
        let objects = try Self.objects(output.stdout)
        #expect((objects.first?["error"] as? [String: Any])?["code"] as? String == "unreadable_file")
    }

    /// The report line is written directly; it must be what `JSONEncoder` with sorted keys makes of `Report`.
    @Test func reportLinesAreTheEncodableForm() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let receipt = try AppReceipt(berEncoded: [UInt8](Self.sampleBytes))
        let odd = ["", "plain", "quote\" back\\ slash/ tab\t nul\u{0} del\u{7F} é 😀 \u{2028}", "\u{1F}\n\r"]
        for file in odd + [nil] as [String?] {
            for reason in odd {
                for line in [nil, 0, 7, Int.max] as [Int?] {
                    let reports = [
                        Outcome.Report(file: file, line: line, valid: false, reasons: ["malformed"], error: .init(code: "malformed_container", reason: reason)),
                        Outcome.Report(file: file, line: line, valid: true, reasons: [], environment: reason, anchor: "apple_root_ca"),
                        Outcome.Report(file: file, line: line, valid: false, reasons: ["a", reason], environment: nil),
                        Outcome.Report(file: file, line: line, valid: true, reasons: [], environment: "Production", anchor: reason, receipt: receipt),
                    ]
                    for report in reports {
                        let expected = try encoder.encode(report) + Data("\n".utf8)
                        #expect(Data(report.jsonLine()) == expected)
                    }
                }
            }
        }
    }
}

/// The progress line's arithmetic (drawn only on a terminal, so its text is checked here).
@Suite struct BatchProgressTests {
    @Test func progressShowsCountsRateAndTimeLeft() {
        #expect(BatchProgress.line(done: 1_234, total: 10_000, seconds: 0.5) == "1,234/10,000 receipts  2,468/s  ETA 0:04")
        #expect(BatchProgress.line(done: 999, total: nil, seconds: 1) == "999 receipts  999/s")
        #expect(BatchProgress.line(done: 0, total: 5, seconds: 0) == "0/5 receipts  0/s")
        #expect(BatchProgress.duration(3_725) == "1:02:05")
        #expect(BatchProgress.duration(.infinity) == "-")
        #expect(BatchProgress.grouped(1_000_000) == "1,000,000")
    }
}
