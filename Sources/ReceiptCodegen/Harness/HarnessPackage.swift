public import Foundation

/// A SwiftPM package around a generated validator, for Linux: its executable `harness RECEIPT DEVICE-ID
/// [--now RFC3339] [--entry N] [--repeat N]` exits 0 when the receipt is valid for the generated app and that device,
/// 1 when not — the handle tests, CI and anyone auditing a generation use. `--repeat N` validates N times more and
/// prints the rate on standard error (`Benchmarks/codegen.sh`).
///
/// Exit status: 0 valid (every entry point, or entry N), 1 invalid, 64 usage, 66 unreadable receipt, 70 the entry
/// points disagree (a generator bug). `DEVICE-ID` is read as `receiptkit validate --device-id` reads it: a UUID, a
/// MAC address, `hex:…` or `base64:…`. A receipt file that does not start with a DER SEQUENCE is read as base64.
public enum HarnessPackage {
    /// The files of the package: `Package.swift`, `Sources/harness/ReceiptCheck.swift` and `Sources/harness/main.swift`.
    public static func files(for validator: GeneratedValidator) -> [(path: String, contents: String)] {
        [
            ("Package.swift", Self.manifest),
            ("Sources/harness/ReceiptCheck.swift", validator.source),
            ("Sources/harness/main.swift", Self.main),
        ]
    }

    /// Writes the package into `directory` (created when missing).
    public static func write(_ validator: GeneratedValidator, to directory: URL) throws(CodegenError) {
        for (path, contents) in Self.files(for: validator) {
            let url = directory.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(contents.utf8).write(to: url)
            } catch {
                throw CodegenError(.cannotWrite, "\(url.path): \(error.localizedDescription)")
            }
        }
    }

    static let manifest = """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "harness",
            targets: [.executableTarget(name: "harness", path: "Sources/harness")],
            swiftLanguageModes: [.v6]
        )

        """

    static let main = #"""
        import Foundation

        // The generated validator's test harness: harness RECEIPT DEVICE-ID [--now RFC3339] [--entry N] [--repeat N]
        // (--repeat: validate N times more and print the rate on standard error, for benchmarks)

        func fail(_ message: String, _ status: Int32) -> Never {
            FileHandle.standardError.write(Data("harness: \(message)\n".utf8))
            exit(status)
        }

        func hexBytes(_ text: Substring) -> [UInt8]? {
            guard text.count % 2 == 0 else { return nil }
            var out: [UInt8] = []
            var index = text.startIndex
            while index < text.endIndex {
                let next = text.index(index, offsetBy: 2)
                guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
                out.append(byte)
                index = next
            }
            return out
        }

        func device(_ text: String) -> [UInt8]? {
            if text.hasPrefix("hex:") { return hexBytes(text.dropFirst(4)).flatMap { $0.isEmpty ? nil : $0 } }
            if text.hasPrefix("base64:") {
                return Data(base64Encoded: String(text.dropFirst(7))).flatMap { $0.isEmpty ? nil : [UInt8]($0) }
            }
            if let uuid = UUID(uuidString: text) { return withUnsafeBytes(of: uuid.uuid) { Array($0) } }
            let colon = text.split(separator: ":", omittingEmptySubsequences: false)
            let parts = colon.count == 6 ? colon : text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 6, parts.allSatisfy({ $0.count == 2 }) else { return nil }
            return hexBytes(Substring(parts.joined()))
        }

        var arguments = Array(CommandLine.arguments.dropFirst())
        var now = Int64(Date().timeIntervalSince1970 * 1000)
        var entry: Int?
        var repeats = 0
        var positional: [String] = []
        while !arguments.isEmpty {
            let argument = arguments.removeFirst()
            switch argument {
            case "--now":
                guard let value = arguments.first else { fail("--now needs an RFC 3339 time", 64) }
                arguments.removeFirst()
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                let plain = ISO8601DateFormatter()
                guard let date = formatter.date(from: value) ?? plain.date(from: value) else { fail("--now: not RFC 3339: \(value)", 64) }
                now = Int64((date.timeIntervalSince1970 * 1000).rounded())
            case "--entry":
                guard let value = arguments.first, let n = Int(value), n >= 1 else { fail("--entry needs a number from 1", 64) }
                arguments.removeFirst()
                entry = n
            case "--repeat":
                guard let value = arguments.first, let n = Int(value), n >= 1 else { fail("--repeat needs a number from 1", 64) }
                arguments.removeFirst()
                repeats = n
            default:
                positional.append(argument)
            }
        }
        guard positional.count == 2 else { fail("usage: harness RECEIPT DEVICE-ID [--now RFC3339] [--entry N] [--repeat N]", 64) }
        guard let data = FileManager.default.contents(atPath: positional[0]) else { fail("cannot read \(positional[0])", 66) }
        var receipt = [UInt8](data)
        if receipt.first != 0x30,
            let decoded = Data(base64Encoded: String(decoding: receipt, as: UTF8.self), options: .ignoreUnknownCharacters)
        {
            receipt = [UInt8](decoded)
        }
        guard let deviceBytes = device(positional[1]) else { fail("not a device id: \(positional[1])", 64) }
        let verdicts = receiptHarnessVerdicts(receipt, deviceBytes, now)
        if repeats > 0 {
            let clock = ContinuousClock()
            var agreeing = 0
            let elapsed = clock.measure {
                for _ in 0..<repeats where receiptHarnessVerdicts(receipt, deviceBytes, now) == verdicts { agreeing += 1 }
            }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let rate = Double(agreeing) / max(seconds, 1e-9)
            FileHandle.standardError.write(Data("harness: \(agreeing) validations in \(seconds) s: \(Int(rate)) receipts/s\n".utf8))
        }
        if let entry {
            guard entry <= verdicts.count else { fail("there are \(verdicts.count) entry points", 64) }
            exit(verdicts[entry - 1] ? 0 : 1)
        }
        guard Set(verdicts).count == 1 else { fail("entry points disagree: \(verdicts)", 70) }
        exit(verdicts[0] ? 0 : 1)

        """#
}
