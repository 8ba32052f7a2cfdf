import Foundation
import ReceiptKitTesting
import ReceiptCodegen

/// Generates a validator with the harness glue, compiles it with `swiftc` (the generated file and the harness's
/// `main.swift`, no package build) and runs it. Builds are cached per options for the test process.
final class HarnessBuild: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let swiftc: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        return path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
    static let skipMessage = "swiftc is not on PATH: the generated validators cannot be compiled"

    let directory: URL
    let executable: URL
    let source: String
    let compilerOutput: String

    /// Generates and compiles as an app ships it: `-O`, warnings as errors.
    init(_ options: CodegenOptions) async throws {
        let validator = try ReceiptCodegenerator.generateForHarness(options)
        self.source = validator.source
        self.directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-codegen-\(UUID().uuidString)")
        try HarnessPackage.write(validator, to: self.directory)
        self.executable = self.directory.appendingPathComponent("harness")
        let sources = self.directory.appendingPathComponent("Sources/harness")
        let result = try await ChildProcess.compile(
            ["-swift-version", "6", "-warnings-as-errors", "-O",
             sources.appendingPathComponent("ReceiptCheck.swift").path, sources.appendingPathComponent("main.swift").path,
             "-module-name", "harness", "-o", self.executable.path]
        )
        self.compilerOutput = result.text
        guard result.status == 0 else { throw Failure(description: "swiftc failed:\n\(result.text.prefix(4000))") }
    }

    deinit {
        try? FileManager.default.removeItem(at: self.directory)
    }

    /// The harness's exit status for `receipt` (written to a file) and `device`, at `now`.
    func status(_ receipt: [UInt8], device: String, now: String, entry: Int? = nil) async throws -> Int32 {
        let file = self.directory.appendingPathComponent("receipt-\(UUID().uuidString).der")
        try Data(receipt).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var arguments = [file.path, device, "--now", now]
        if let entry { arguments += ["--entry", String(entry)] }
        return try await ChildProcess.run(self.executable, arguments).status
    }
}
