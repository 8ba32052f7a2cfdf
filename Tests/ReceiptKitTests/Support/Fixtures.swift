import Foundation

/// Real App Store receipts from `../shared/fixtures/receipts/` (never copied into this repository).
enum Fixtures {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // ReceiptKitTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .deletingLastPathComponent()  // workspace
        .appendingPathComponent("shared/fixtures/receipts")

    static var available: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("expected.json").path)
    }

    static let skipMessage = "../shared/fixtures/receipts is absent (a user's clone): real-receipt tests skipped"

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// `expected.json`: per receipt, the decoded values and the trust verdicts.
    static var expected: [String: [String: Any]] {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("expected.json")),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
        else { return [:] }
        return object
    }

    /// The receipt file names, sorted; empty when the fixtures are absent.
    static var receiptNames: [String] {
        expected.keys.sorted()
    }
}
