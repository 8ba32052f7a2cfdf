import Foundation
import ReceiptKitTesting
import Testing

/// A `receiptkit simulate play` that has played: its summary, the outcome lines after it, and the process, which
/// goes on serving the simulator until the test terminates it.
struct ScenarioPlay {
    let process: SpawnedProcess
    /// Standard output: the summary line, then one line per customer's product.
    let text: String
    let notifications: Int, acknowledged: Int, failed: Int, duplicates: Int, dropped: Int

    /// Starts `simulate play` with `arguments` (its output in files under `directory`) and returns once it has played.
    static func start(_ arguments: [String], in directory: URL) async throws -> ScenarioPlay {
        let stdout = directory.appendingPathComponent("play.out"), stderr = directory.appendingPathComponent("play.err")
        try Data().write(to: stdout)
        try Data().write(to: stderr)
        let output = try FileHandle(forWritingTo: stdout), errors = try FileHandle(forWritingTo: stderr)
        let process = try SpawnedProcess(
            CLIRunner.executable, ["simulate", "play"] + arguments,
            standardOutput: .descriptor(output.fileDescriptor), standardError: .descriptor(errors.fileDescriptor))
        try output.close()
        try errors.close()
        var text = ""
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning, !text.contains("played: ") {
            try await Task.sleep(for: .milliseconds(50))
            text = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
        }
        // Let the outcome lines follow the summary.
        try await Task.sleep(for: .milliseconds(300))
        text = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
        guard let summary = text.split(separator: "\n").first(where: { $0.hasPrefix("played: ") }) else {
            process.terminate()
            throw ServeCLITests.ServeFailure("no summary: \(text) \((try? String(contentsOf: stderr, encoding: .utf8)) ?? "")")
        }
        let counts = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard counts.count == 5 else {
            process.terminate()
            throw ServeCLITests.ServeFailure("an unexpected summary: \(summary)")
        }
        return ScenarioPlay(
            process: process, text: text, notifications: counts[0], acknowledged: counts[1], failed: counts[2],
            duplicates: counts[3], dropped: counts[4])
    }

    /// The original transaction id the play printed for `customer`'s `product` ("  ana PRODUCT: state (ID)").
    func originalTransactionID(of customer: String, product: String) -> String? {
        guard let line = self.text.split(separator: "\n").first(where: { $0.hasPrefix("  \(customer) \(product): ") }) else { return nil }
        return line.split(separator: " ").last?.trimmingCharacters(in: CharacterSet(charactersIn: "()"))
    }
}
