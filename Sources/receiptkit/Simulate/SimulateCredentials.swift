import AppStorePKI
import AppStoreServerAPISimulator
import Crypto
import Foundation
import _ReceiptKitShared

/// The In-App Purchase key `simulate` registers with its simulator, and the files that let a backend use it.
struct SimulateCredentials: Sendable {
    let key: P256.Signing.PrivateKey
    /// Ten characters, as Apple's key ids.
    let keyID: String
    let issuerID: String

    init(key: P256.Signing.PrivateKey) {
        self.key = key
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        self.keyID = String((0..<10).map { _ in alphabet.randomElement() ?? "A" })
        self.issuerID = UUID().uuidString.lowercased()
    }

    var keyFile: String { "AuthKey_\(self.keyID).p8" }

    /// Writes the key and `service-settings.json` into `folder`; returns the settings' path.
    /// - Parameter anchor: The root certificate's path (default: `folder/root.cer`).
    func write(to folder: String, scenario: SimulationScenario, baseURL: String, anchor: String?) throws -> String {
        let directory = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL
        let keyPath = directory.appendingPathComponent(self.keyFile).path
        let settingsPath = directory.appendingPathComponent("service-settings.json").path
        let root = URL(fileURLWithPath: anchor ?? directory.appendingPathComponent("root.cer").path).standardizedFileURL.path
        let environment = scenario.environment.rawValue.lowercased()
        let apps: [JSONValue] = scenario.apps.map { app in
            .object([
                "bundle_id": .string(app.bundleIdentifier), "issuer_id": .string(self.issuerID),
                "key_id": .string(self.keyID), "private_key_file": .string(keyPath), "base_url": .string(baseURL),
                "environment": .string(environment), "app_apple_id": .number(JSONNumber(app.appAppleID)),
            ])
        }
        let settings = JSONValue.object(["anchors": .array([.string(root)]), "app_store_server_api": .array(apps)])
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(self.key.pemRepresentation.utf8).write(to: URL(fileURLWithPath: keyPath), options: .atomic)
            try Data(settings.serialized + [0x0A]).write(to: URL(fileURLWithPath: settingsPath), options: .atomic)
        } catch {
            StandardError.write("receiptkit: \(folder): cannot be written: \(error.localizedDescription)\n")
            throw ExitStatus.cannotCreate.exitCode
        }
        return settingsPath
    }
}
