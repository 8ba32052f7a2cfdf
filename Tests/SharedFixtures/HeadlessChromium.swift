public import Foundation
import ReceiptKitTesting

/// A headless Chromium for tests that look at a page as a browser draws it: where it is (`RECEIPTKIT_CHROMIUM`, else
/// `chromium`, `chromium-browser` or `google-chrome` on `PATH`), and whether the run requires it
/// (`RECEIPTKIT_REQUIRE_CHROMIUM=1`, as `.ci/run` sets after installing Debian's `chromium`).
public enum HeadlessChromium {
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["RECEIPTKIT_REQUIRE_CHROMIUM"] == "1" }

    /// The browser's path, or `nil` when this machine has none.
    public static let path: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["RECEIPTKIT_CHROMIUM"], !given.isEmpty { return given }
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }()

    /// What one run printed and how it ended.
    public struct Run: Sendable {
        public let status: Int32
        public let output: String
        public let errors: String
    }

    /// Runs the browser headless with `arguments` (after its own: no sandbox, no GPU, a fresh profile in `directory`),
    /// its output in files so that a large DOM cannot fill a pipe; killed after `seconds`.
    public static func run(_ arguments: [String], in directory: URL, seconds: Double = 60) async throws -> Run {
        guard let path = Self.path else { throw CocoaError(.fileNoSuchFile) }
        let output = directory.appendingPathComponent("chromium-\(UUID().uuidString).out")
        let errors = directory.appendingPathComponent("chromium-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let outputFile = try FileHandle(forWritingTo: output), errorsFile = try FileHandle(forWritingTo: errors)
        defer {
            try? outputFile.close()
            try? errorsFile.close()
        }
        let process = try SpawnedProcess(
            URL(fileURLWithPath: path),
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-extensions", "--disable-background-networking", "--hide-scrollbars", "--enable-logging=stderr",
                "--user-data-dir=\(directory.appendingPathComponent("profile-\(UUID().uuidString)").path)",
            ] + arguments,
            standardOutput: .descriptor(outputFile.fileDescriptor), standardError: .descriptor(errorsFile.fileDescriptor))
        // The browser's helpers share its process group: a hung run ends with all of them.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { if process.isRunning { kill(-pid, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        defer { watchdog.cancel() }
        let status = await process.exit()
        return Run(
            status: status, output: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }
}
