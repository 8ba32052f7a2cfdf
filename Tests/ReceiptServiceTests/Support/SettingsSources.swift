import Foundation
@testable import ReceiptService

/// Reads the service's settings from the sources a test gives: a settings document (written to a temporary
/// directory), environment variables, `--set` settings and typed flags.
enum SettingsSources {
    /// The settings, or the startup error they stop at; `directory` is where the document was written.
    static func read(
        file json: String? = nil,
        environment: [String: String] = [:],
        set commandLine: [String: String] = [:],
        _ adjust: (inout ServiceConfiguration) -> Void = { _ in }
    ) throws -> (settings: ServiceSettings, unknownVariables: [String], directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-settings-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServiceConfiguration()
        if let json {
            let path = directory.appendingPathComponent("serve.json")
            try Data(json.utf8).write(to: path)
            configuration.settingsFile = path.path
        }
        configuration.environment = environment
        configuration.commandLineSettings = commandLine
        adjust(&configuration)
        let (settings, unknown) = try configuration.settings()
        return (settings, unknown, directory)
    }

    /// The error the sources stop at, or `nil`.
    static func refusal(
        file json: String? = nil,
        environment: [String: String] = [:],
        set commandLine: [String: String] = [:],
        _ adjust: (inout ServiceConfiguration) -> Void = { _ in }
    ) -> ServiceStartupError? {
        do {
            _ = try Self.read(file: json, environment: environment, set: commandLine, adjust)
            return nil
        } catch {
            return error as? ServiceStartupError
        }
    }
}
