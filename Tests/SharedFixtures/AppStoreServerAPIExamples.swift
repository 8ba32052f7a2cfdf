public import Foundation

/// Apple's documented App Store Server API request and response examples, from
/// `../shared/fixtures/app-store-server-api/` next to the clone (MIT, from Apple's app-store-server-library-swift;
/// never copied into this repository). Their signed values are placeholders, not JWS.
public enum AppStoreServerAPIExamples {
    public static let directory: URL = RealReceipts.directory
        .deletingLastPathComponent()  // fixtures
        .appendingPathComponent("app-store-server-api")

    /// Whether the folder is there (CI always has it; a user's clone does not).
    public static var available: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("transactionHistoryResponse.json").path)
    }

    public static let skipMessage =
        "../shared/fixtures/app-store-server-api is absent (a user's clone): Apple's examples skipped"

    public static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Every example's file name, sorted; empty when the fixtures are absent.
    public static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".json") }
            .sorted()
    }
}
