public import Foundation

/// Real App Store receipts from `../shared/fixtures/receipts/` next to the clone (never copied into this
/// repository): the one place the test targets find them.
public enum RealReceipts {
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SharedFixtures
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .deletingLastPathComponent()  // workspace
        .appendingPathComponent("shared/fixtures/receipts")

    /// Whether the folder is there (CI always has it; a user's clone does not).
    public static var available: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("expected.json").path)
    }

    public static let skipMessage = "../shared/fixtures/receipts is absent (a user's clone): real-receipt tests skipped"

    public static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// `expected.json`: per receipt, the decoded values and the trust verdicts.
    public static var expected: [String: [String: Any]] {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("expected.json")),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
        else { return [:] }
        return object
    }

    /// The receipt file names, sorted; empty when the fixtures are absent.
    public static var receiptNames: [String] {
        expected.keys.sorted()
    }

    /// The device ids `devices.json` lists for `name`, or one unrelated id.
    public static func devices(for name: String) -> [String] {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("devices.json")),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: [String]],
            let devices = object[name], !devices.isEmpty
        else { return ["11111111-2222-3333-4444-555555555555"] }
        return devices
    }
}
