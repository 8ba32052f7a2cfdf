import Foundation

/// Real App Store receipts from `../shared/fixtures/receipts/` (never copied into this repository).
enum SharedReceipts {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ReceiptCodegenTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .deletingLastPathComponent()  // workspace
        .appendingPathComponent("shared/fixtures/receipts")

    static var available: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("expected.json").path)
    }

    static let skipMessage = "../shared/fixtures/receipts is absent (a user's clone): real-receipt agreement tests skipped"

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static var receiptNames: [String] {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("expected.json")),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [] }
        return object.keys.sorted()
    }

    /// The device ids `devices.json` lists for `name`, or one unrelated id.
    static func devices(for name: String) -> [String] {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("devices.json")),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: [String]],
            let devices = object[name], !devices.isEmpty
        else { return ["11111111-2222-3333-4444-555555555555"] }
        return devices
    }
}
