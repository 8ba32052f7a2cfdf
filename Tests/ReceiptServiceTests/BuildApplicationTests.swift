import Foundation
import Hummingbird
import HummingbirdTesting
import LedgerTestSupport
import Logging
import NIOConcurrencyHelpers
import ReceiptLedger
@testable import ReceiptService
import Testing
import _ReceiptKitShared

/// `buildApplication(configuration:)`: what it refuses before anything listens, and a service composed from a
/// settings file alone.
@Suite("buildApplication")
struct BuildApplicationTests {
    /// The package's `Examples/` folder (the sample receipt and the test root that minted it).
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples")

    static var quiet: Logger {
        var logger = Logger(label: "receiptkit.test.build")
        logger.logLevel = .warning
        return logger
    }

    /// Runs `body` in a new temporary directory, removed afterwards.
    static func inDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-build-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    /// The error `adjust`'s configuration stops the start with.
    static func startupError(
        _ adjust: (inout ServiceConfiguration) -> Void
    ) async -> ServiceStartupError? {
        var configuration = ServiceConfiguration(logger: Self.quiet)
        configuration.database = "sqlite::memory:"
        adjust(&configuration)
        do {
            _ = try await buildApplication(configuration: configuration)
            return nil
        } catch {
            return error
        }
    }

    @Test("an unreadable or malformed file, a database location that names none, one that cannot be opened")
    func startupErrorsCarryTheirCodes() async throws {
        try await Self.inDirectory { directory in
            let port = directory.appendingPathComponent("port.json")
            try Data(#"{"port": 70000}"#.utf8).write(to: port)
            let garbage = directory.appendingPathComponent("garbage.cer")
            try Data("not a certificate".utf8).write(to: garbage)

            let none = directory.appendingPathComponent("none.json").path
            let missing = await Self.startupError { $0.settingsFile = none }
            #expect(missing?.code == .unreadableFile)
            #expect(missing?.reason.hasPrefix("--config ") == true)
            let range = await Self.startupError { $0.settingsFile = port.path }
            #expect(range?.code == .malformedFile)
            #expect(range?.reason == "--config \(port.path): port must be in [0, 65535], not 70000")
            let anchor = await Self.startupError { $0.anchorFiles = [garbage.path] }
            #expect(anchor?.code == .malformedFile)
            #expect(anchor?.reason.hasPrefix("anchor \(garbage.path): ") == true)
            let location = await Self.startupError { $0.database = "mysql://x" }
            #expect(location?.code == .invalidDatabase)
            let unopenable = await Self.startupError {
                $0.database = "sqlite:" + directory.appendingPathComponent("no/such/dir/ledger.sqlite").path
            }
            #expect(unopenable?.code == .databaseUnavailable)
        }
    }

    @Test("a settings file alone: its anchors relative to it, its secrets and database applied, the ledger migrated")
    func servesFromASettingsFile() async throws {
        try await Self.inDirectory { directory in
            try FileManager.default.copyItem(
                at: Self.examples.appendingPathComponent("TestRoot.cer"),
                to: directory.appendingPathComponent("root.cer"))
            let settings = directory.appendingPathComponent("serve.json")
            let json = #"{"anchors": ["root.cer"], "database": "sqlite::memory:", "#
                + #""shared_secrets": {"com.example.receiptkit": "s3cret"}}"#
            try Data(json.utf8).write(to: settings)
            var configuration = ServiceConfiguration(logger: Self.quiet)
            configuration.settingsFile = settings.path
            configuration.port = 0
            let receipt = try Data(contentsOf: Self.examples.appendingPathComponent("sample.receipt"))
            let application = try await buildApplication(configuration: configuration)
            try await application.test(.live) { client in
                for (password, status) in [(nil, 21004), ("s3cret", 0)] as [(String?, Int)] {
                    let body = ServiceHarness.body(Array(receipt), password: password)
                    #expect(try await ServiceHarness.post(client, body: body)["status"] as? Int == status)
                }
                try await client.execute(uri: "/health", method: .get) { response in
                    #expect(response.status == .ok)  // the ledger answers: it was opened and migrated
                }
            }
        }
    }

    @Test("ledger_snapshot_cache_bytes reaches the ledger: 0 turns its cache off, a negative size is refused", arguments: [nil, "0"] as [String?])
    func snapshotCacheSetting(bytes: String?) async throws {
        var configuration = ServiceConfiguration(logger: Self.quiet)
        configuration.database = "sqlite::memory:"
        configuration.port = 0
        if let bytes { configuration.commandLineSettings = ["ledger_snapshot_cache_bytes": bytes] }
        let application = try await buildApplication(configuration: configuration)
        try await application.test(.live) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("receiptkit_build_info{version=\"\(ReceiptKitVersion.string)\"} 1"), "\(text.prefix(400))")
                #expect(text.contains("receiptkit_ledger_snapshot_cache_enabled \(bytes == "0" ? "0.0" : "1.0")\n"), "\(text.prefix(2000))")
            }
        }
        let refused = await Self.startupError { $0.commandLineSettings = ["ledger_snapshot_cache_bytes": "-1"] }
        #expect(refused?.code == .invalidSetting)
        #expect(refused?.reason.contains("ledger_snapshot_cache_bytes must be in [0, 1099511627776], not -1") == true, "\(refused?.reason ?? "")")
    }

    @Test("serve logs what it starts with once, at info, without a secret; Xcode receipts warned about")
    func startupSummary() async throws {
        let logs = CapturedLogs()
        var configuration = ServiceConfiguration(logger: logs.logger)
        configuration.database = "sqlite::memory:"
        configuration.port = 0
        configuration.allowsXcodeReceipts = true
        configuration.commandLineSettings = [
            "allowed_bundle_ids": #"["com.example.b", "com.example.a"]"#,
            "shared_secrets": #"{"com.example.a": "hunter2-secret"}"#,
        ]
        let application = try await buildApplication(configuration: configuration)
        try await application.test(.live) { client in
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
        }
        let starting = logs.all.filter { $0.message == "service starting" }
        #expect(starting.count == 1)
        let line = try #require(starting.first)
        #expect(line.level == .info)
        #expect(line.metadata["listen"] == "http://127.0.0.1:0")
        #expect(line.metadata["database"] == "sqlite::memory:")
        #expect(line.metadata["schema_version"] == "\(LedgerSchemaVersion.latest)")
        #expect(line.metadata["apps_answered"] == "com.example.a,com.example.b")
        #expect(line.metadata["app_store_server_api"] == "none")
        #expect(line.metadata["xcode_receipts"] == "accepted")
        #expect(line.metadata["routes"]?.hasPrefix("POST /notifications/v2 (Apple must reach it)") == true)
        #expect(logs.all.contains { $0.level == .warning && $0.message.hasPrefix("Xcode receipts") })
        // The apps are named: no warning about receipts of any app.
        #expect(!logs.all.contains { $0.message.hasPrefix("allowed_bundle_ids is not set") })
        // On loopback: no exposure notice.
        #expect(!logs.all.contains { $0.message.hasPrefix("listening beyond this machine") })
        #expect(!logs.all.contains { entry in "\(entry.message) \(entry.metadata)".contains("hunter2") })
    }

    @Test("an address beyond loopback is told apart (serve then says what must stay behind the proxy)", arguments: [
        ("127.0.0.1", true), ("::1", true), ("localhost", true), ("0.0.0.0", false), ("10.0.0.5", false), ("::", false),
    ])
    func loopbackOnly(host: String, loopback: Bool) {
        var settings = ServiceSettings()
        settings.host = host
        let summary = ServiceCheck(
            settings: settings, accepted: settings.verifyReceipt, clients: [:], database: .sqlite(path: nil),
            schemaVersion: 0, unknownVariables: [])
        #expect(summary.listensOnLoopbackOnly == loopback)
    }

    @Test("without allowed_bundle_ids, serve warns at start that any app's receipts are recorded")
    func warnsWithoutAllowedApps() async throws {
        let logs = CapturedLogs()
        var configuration = ServiceConfiguration(logger: logs.logger)
        configuration.database = "sqlite::memory:"
        configuration.port = 0
        try await buildApplication(configuration: configuration).test(.live) { client in
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
        }
        let warning = logs.all.first { $0.message.hasPrefix("allowed_bundle_ids is not set") }
        #expect(warning?.level == .warning)
        #expect(logs.all.first { $0.message == "service starting" }?.metadata["apps_answered"] == "every app")
    }

    @Test("metrics_listen: /health and /metrics on a listener of their own, and 404 on the main one")
    func probesOnTheirOwnListener() async throws {
        let probes = NIOLockedValueBox<Int?>(nil)
        var configuration = ServiceConfiguration(logger: Self.quiet)
        configuration.database = "sqlite::memory:"
        configuration.port = 0
        configuration.commandLineSettings = ["metrics_listen": "127.0.0.1:0"]
        configuration.onProbesRunning = { address in
            probes.withLockedValue { $0 = Int(address.split(separator: ":").last ?? "") }
        }
        try await buildApplication(configuration: configuration).test(.live) { client in
            try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .notFound) }
            var port: Int?
            for _ in 0..<600 where port == nil {
                port = probes.withLockedValue { $0 }
                if port == nil { try await Task.sleep(for: .milliseconds(50)) }
            }
            let probePort = try #require(port)
            func get(_ path: String) async throws -> String {
                try await RawHTTP.exchange(
                    port: probePort, head: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                    body: [], timeout: 30)
            }
            let metrics = try await get("/metrics")
            #expect(metrics.hasPrefix("HTTP/1.1 200") && metrics.contains("receiptkit_build_info"), "\(metrics.prefix(80))")
            #expect(try await get("/health").hasPrefix("HTTP/1.1 200"))
            #expect(try await get("/verifyReceipt").hasPrefix("HTTP/1.1 404"))
        }
        // --check-config says where they are.
        let check = try await configuration.check()
        #expect(check.lines.contains("health and metrics: http://127.0.0.1:0 (not on the main listener)"), "\(check.lines)")
        // A value that is no host:port is refused with the rule.
        let refused = await Self.startupError { $0.commandLineSettings = ["metrics_listen": "9090"] }
        #expect(refused?.code == .invalidSetting)
        #expect(refused?.reason.contains("metrics_listen must be empty or host:port") == true, "\(refused?.reason ?? "")")
    }

    @Test("a probe listener's address is read as host:port, IPv6 in brackets", arguments: [
        ("127.0.0.1:9090", "127.0.0.1", 9090), ("[::1]:9090", "::1", 9090), ("localhost:0", "localhost", 0),
    ])
    func probeListenerAddresses(text: String, host: String, port: Int) {
        #expect(ProbeListener(text) == ProbeListener(host: host, port: port))
        #expect(ProbeListener(text)?.description == text)
    }

    @Test("what is not host:port is no probe listener", arguments: ["", "9090", ":9090", "::1:9090", "host:", "host:70000", "host:+1", "[::1]9090"])
    func notProbeListenerAddresses(text: String) {
        #expect(ProbeListener(text) == nil)
    }

    @Test("the probes' own listener says starting (503) until the main listener is bound")
    func probesSayStartingUntilTheServerRuns() async throws {
        try await ServiceHarness.withMemoryLedger { ledger in
            let components = try ServiceComponents(
                configuration: try ServiceHarness.configuration(), ledger: ledger, now: { ServiceTestPKI.now })
            var server = VerifyReceiptServer(components: components, host: "127.0.0.1", port: 0, logger: Self.quiet)
            server.servesProbes = false
            // Only the probes' listener runs: the main one never binds.
            try await server.probeApplication(ProbeListener(host: "127.0.0.1", port: 0)).test(.live) { client in
                try await client.execute(uri: "/health", method: .get) { response in
                    #expect(response.status == .serviceUnavailable)
                    #expect(String(buffer: response.body) == #"{"status":"starting"}"#)
                }
                try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .ok) }
                try await client.execute(uri: "/verifyReceipt", method: .post) { #expect($0.status == .notFound) }
            }
        }
    }
}
