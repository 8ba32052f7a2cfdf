import ReceiptLedger
import ReceiptService
import SharedFixtures
import Foundation
import ReceiptKitTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `receiptkit serve` as a user runs it: a real process on 127.0.0.1, curl-like requests, SIGTERM to stop.
@Suite("receiptkit serve", .serialized)
struct ServeCLITests {
    /// A running `receiptkit serve`; the port is read from its "serving verifyReceipt on" line.
    final class Server: @unchecked Sendable {
        let process: SpawnedProcess
        let port: Int
        private var stderrText = ""

        init(_ arguments: [String], in directory: URL = CLIRunner.packageRoot) throws {
            self.process = try SpawnedProcess(
                CLIRunner.executable, ["serve", "--host", "127.0.0.1", "--port", "0", "--log-level", "warning"] + arguments,
                directory: directory, standardError: .pipe)
            var text = ""
            let deadline = Date().addingTimeInterval(60)
            // Until the line that names the port: warnings may come first (a RECEIPTKIT_ variable of the tests'
            // own, say, which names no setting).
            while Date() < deadline, self.process.isRunning {
                let chunk = self.process.readChunk(.error)
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
                if text.contains("serving verifyReceipt on http://") { break }
            }
            self.stderrText = text
            guard let range = text.range(of: #"serving verifyReceipt on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                let port = Int(text[range].split(separator: ":").last ?? "")
            else {
                self.process.terminate()
                throw ServeFailure("serve did not start: \(text)")
            }
            self.port = port
        }

        /// SIGTERM, then the exit status and everything written to standard error.
        func stopReadingStandardError() -> (status: Int32, stderr: String) {
            let status = self.stop()
            let rest = self.process.readToEnd(.error)
            return (status, self.stderrText + String(decoding: rest, as: UTF8.self))
        }

        /// Returns once the process has exited (killed by the test, say).
        func waitForExit() {
            self.process.waitUntilExit()
        }

        /// SIGTERM, then the exit status.
        func stop() -> Int32 {
            self.process.terminate()
            return self.process.waitUntilExit()
        }

        /// The value of the unlabelled metric `name` at `GET /metrics`.
        func metric(_ name: String) async throws -> Double? {
            guard let url = URL(string: "http://127.0.0.1:\(self.port)/metrics") else { throw ServeFailure("bad path") }
            let (data, _) = try await URLSession.shared.data(from: url)
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix(name + " ") {
                return Double(line.dropFirst(name.count + 1))
            }
            return nil
        }

        func post(_ path: String, json: Data) async throws -> [String: Any] {
            guard let url = URL(string: "http://127.0.0.1:\(self.port)\(path)") else { throw ServeFailure("bad path") }
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.httpBody = json
            let (data, response) = try await URLSession.shared.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200,
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { throw ServeFailure("not an HTTP 200 JSON object") }
            return object
        }
    }

    struct ServeFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func body(_ path: String) throws -> Data {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path, relativeTo: CLIRunner.packageRoot))
        return try JSONSerialization.data(withJSONObject: ["receipt-data": bytes.base64EncodedString()])
    }

    /// The `receipt` object of `receiptkit inspect --json`.
    static func inspect(_ path: String) async throws -> [String: Any] {
        let output = try await CLIRunner.run(["inspect", "--json", path])
        return try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    @Test("serves the sample on an SQLite file that outlives the process; the receipt matches inspect --json")
    func sampleOnSQLite() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-serve-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = "sqlite:" + directory.appendingPathComponent("ledger.sqlite").path
        let sample = try Self.body("Examples/sample.receipt")

        let first = try Server(["--database", database, "--anchor", "Examples/TestRoot.cer"])
        let answer = try await first.post("/verifyReceipt", json: sample)
        #expect(answer["status"] as? Int == 0)
        var served = try #require(answer["receipt"] as? [String: Any])
        for key in ["request_date", "request_date_ms", "request_date_pst"] { #expect(served.removeValue(forKey: key) != nil) }
        await #expect(NSDictionary(dictionary: served).isEqual(to: try Self.inspect("Examples/sample.receipt")))
        #expect((try await first.post("/sandbox/verifyReceipt", json: sample))["status"] as? Int == 21008)
        #expect(first.stop() == 0)  // graceful stop on SIGTERM

        // The ledger survived the restart.
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("ledger.sqlite").path))
        let second = try Server(["--database", database, "--anchor", "Examples/TestRoot.cer"])
        let again = try await second.post("/verifyReceipt", json: sample)
        #expect((again["latest_receipt_info"] as? [Any])?.count == 1)
        // A second server on the same file is refused before it serves: it would never see the first's writes.
        let rival = try await CLIRunner.run(["serve", "--port", "0", "--database", database, "--anchor", "Examples/TestRoot.cer"])
        #expect(rival.status == 69, "\(rival.stderr)")
        #expect(rival.stderr.contains("is in use by another process (pid \(second.process.processIdentifier))"), "\(rival.stderr)")
        // Another server on the same port (another ledger): the address is named, with the way out.
        let taken = try await CLIRunner.run(["serve", "--port", String(second.port), "--database", "sqlite::memory:"])
        #expect(taken.status == 69, "\(taken.stderr)")
        #expect(taken.stderr.contains("receiptkit: cannot listen on 127.0.0.1:\(second.port): the address is already in use"), "\(taken.stderr)")
        // The probes' own listener on that port: its address and setting are named, not the main listener's.
        let probes = try await CLIRunner.run([
            "serve", "--port", "0", "--database", "sqlite::memory:", "--set", "metrics_listen=127.0.0.1:\(second.port)",
        ])
        #expect(probes.status == 69, "\(probes.stderr)")
        #expect(
            probes.stderr.contains(
                "receiptkit: cannot listen on 127.0.0.1:\(second.port) (metrics_listen): the address is already in use "
                    + "(another process listens there: stop it, or choose another port in the metrics_listen setting)"),
            "\(probes.stderr)")
        #expect(second.stop() == 0)
        // Stopped, the owner let go: the file opens again.
        let third = try Server(["--database", database, "--anchor", "Examples/TestRoot.cer"])
        #expect(third.stop() == 0)
        // --check-config on the served file: its schema is this build's, and nothing else is said to be wrong.
        let check = try await CLIRunner.run(["serve", "--check-config", "--database", database, "--port", "9"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("listen: http://127.0.0.1:9\n"))
        #expect(check.stdout.contains("database: \(database) (schema version \(LedgerSchemaVersion.latest), this build's)\n"), "\(check.stdout)")
        #expect(check.stdout.hasSuffix("ready to serve\n"))
    }

    @Test("--log-format json: every line on standard error is one JSON object, the start-up summary and requests too")
    func jsonLogs() async throws {
        let server = try Server([
            "--database", "sqlite::memory:", "--anchor", "Examples/TestRoot.cer", "--log-format", "json",
            "--log-level", "debug",
        ])
        let answer = try await server.post("/verifyReceipt", json: try Self.body("Examples/sample.receipt"))
        #expect(answer["status"] as? Int == 0)
        let (status, stderr) = server.stopReadingStandardError()
        #expect(status == 0)
        let lines = try stderr.split(separator: "\n").map { line in
            try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
        for line in lines {
            #expect(line["time"] is String && line["level"] is String && line["label"] is String && line["message"] is String)
        }
        let starting = try #require(lines.first { $0["message"] as? String == "service starting" })
        #expect(starting["level"] as? String == "info")
        #expect(starting["database"] as? String == "sqlite::memory:")
        #expect((starting["listen"] as? String)?.hasPrefix("http://127.0.0.1:") == true)
        let serving = try #require(lines.first { ($0["message"] as? String)?.hasPrefix("serving verifyReceipt on http://127.0.0.1:") == true })
        #expect(serving["ledger"] as? String == "sqlite::memory:")
        let request = try #require(lines.first { $0["message"] as? String == "verifyReceipt" })
        #expect(request["status"] as? String == "0")
        #expect(request["endpoint"] as? String == "production")
        #expect(request["duration_ms"] is String)
    }

    @Test("--log-format takes text or json")
    func logFormatRule() async throws {
        let result = try await CLIRunner.run(["serve", "--log-format", "xml"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--log-format is text or json"), "\(result.stderr)")
    }

    @Test("the shared real receipts: each answered as inspect --json decodes it", .enabled(if: RealReceipts.available))
    func realReceipts() async throws {
        let server = try Server(["--database", "sqlite::memory:"])
        defer { _ = server.stop() }
        for name in ["receipt-production.der", "receipt-sandbox-legacy.der", "receipt-watch.der"] {
            let path = RealReceipts.directory.appendingPathComponent(name).path
            let inspected = try await Self.inspect(path)
            let endpoint = (inspected["receipt_type"] as? String) == "Production" ? "/verifyReceipt" : "/sandbox/verifyReceipt"
            let answer = try await server.post(endpoint, json: try Self.body(path))
            #expect(answer["status"] as? Int == 0, "\(name)")
            var served = try #require(answer["receipt"] as? [String: Any])
            for key in ["request_date", "request_date_ms", "request_date_pst"] { served[key] = nil }
            #expect(NSDictionary(dictionary: served).isEqual(to: inspected), "\(name)")
        }
    }

    @Test("a configuration file's settings apply, its anchors resolved against the file's directory")
    func configurationFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-serve-file-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(
            at: CLIRunner.packageRoot.appendingPathComponent("Examples/TestRoot.cer"),
            to: directory.appendingPathComponent("root.cer"))
        let config = directory.appendingPathComponent("serve.json")
        try Data(#"{"anchors": ["root.cer"], "database": "sqlite::memory:", "shared_secrets": {"com.example.receiptkit": "s3cret"}}"#.utf8)
            .write(to: config)
        // Started from the file's own directory with a bare file name: the anchor must still resolve there.
        let server = try Server(["--config", "serve.json"], in: directory)
        defer { _ = server.stop() }
        let receipt = try Data(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Examples/sample.receipt"))
            .base64EncodedString()
        let wrong = try await server.post(
            "/verifyReceipt", json: try JSONSerialization.data(withJSONObject: ["receipt-data": receipt]))
        #expect(wrong["status"] as? Int == 21004)
        let right = try await server.post(
            "/verifyReceipt",
            json: try JSONSerialization.data(withJSONObject: ["receipt-data": receipt, "password": "s3cret"]))
        #expect(right["status"] as? Int == 0)  // 21003 if root.cer had not been found next to the file
    }

    @Test("configuration mistakes stop the start with the exit status and a message")
    func configurationErrors() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-serve-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let typo = directory.appendingPathComponent("typo.json")
        try Data(#"{"shared_secret": {"com.example.app": "x"}}"#.utf8).write(to: typo)
        let badPort = directory.appendingPathComponent("port.json")
        try Data(#"{"port": 70000}"#.utf8).write(to: badPort)

        let unknown = try await CLIRunner.run(["serve", "--config", typo.path])
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains(#"unknown setting "shared_secret""#))
        let range = try await CLIRunner.run(["serve", "--config", badPort.path])
        #expect(range.status == 65)
        #expect(range.stderr.contains("port must be in [0, 65535], not 70000"))
        let missing = try await CLIRunner.run(["serve", "--config", directory.appendingPathComponent("none.json").path])
        #expect(missing.status == 66)
        let database = try await CLIRunner.run(["serve", "--database", "mysql://x"])
        #expect(database.status == 64)
        #expect(database.stderr.contains("sqlite:PATH"))
        let port = try await CLIRunner.run(["serve", "--port", "70000"])
        #expect(port.status == 64)
        #expect(port.stderr.contains("--port: port must be in [0, 65535], not 70000"))
        let badAge = directory.appendingPathComponent("age.json")
        try Data(#"{"notification_max_age_seconds": 5}"#.utf8).write(to: badAge)
        let age = try await CLIRunner.run(["serve", "--config", badAge.path])
        #expect(age.status == 65)
        #expect(age.stderr.contains("notification_max_age_seconds must be in [60, 31536000], not 5"))
        let ageOption = try await CLIRunner.run(["serve", "--notification-max-age=-1"])
        #expect(ageOption.status == 64)
        #expect(ageOption.stderr.contains("--notification-max-age: notification_max_age_seconds must be in [60, 31536000], not -1"))
        let huge = try await CLIRunner.run(["serve", "--notification-max-age", "1e300"])
        #expect(huge.status == 64)
        let set = try await CLIRunner.run(["serve", "--set", "max_connections=0"])
        #expect(set.status == 64)
        #expect(set.stderr.contains("--set max_connections: max_connections must be in [1, 1048576], not 0"))
        let noEquals = try await CLIRunner.run(["serve", "--set", "s3cret-given-without-its-name"])
        #expect(noEquals.status == 64)
        #expect(!noEquals.stderr.contains("s3cret"))  // a secret given by mistake is not echoed
        // The environment is configuration, like the file: 65, naming the variable.
        let variable = try await CLIRunner.run(["serve"], environment: ["RECEIPTKIT_MAX_CONNECTIONS": "0"])
        #expect(variable.status == 65)
        #expect(variable.stderr.contains("RECEIPTKIT_MAX_CONNECTIONS: max_connections must be in [1, 1048576], not 0"))
    }

    @Test("--check-config: what serve would find, printed without serving; a missing key or a closed port stops it as serve would")
    func checkConfig() async throws {
        let empty = try await CLIRunner.run(
            [
                "serve", "--check-config", "--database", "sqlite::memory:", "--anchor", "Examples/TestRoot.cer",
                "--set", #"allowed_bundle_ids=["com.example.app"]"#,
            ], environment: ["RECEIPTKIT_NOT_A_SETTING": "1"])
        #expect(empty.status == 0, "\(empty.stderr)")
        // The RECEIPTKIT_ variables that name no setting are listed (the test's own environment may add some).
        let ignored = "ignored (no such setting): "
        let lines = empty.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first { $0.hasPrefix(ignored) }?.contains("RECEIPTKIT_NOT_A_SETTING") == true, "\(empty.stdout)")
        #expect(
            lines.filter { !$0.hasPrefix(ignored) }.joined(separator: "\n") == """
                listen: http://127.0.0.1:8080
                database: sqlite::memory: (empty: serve creates schema version \(LedgerSchemaVersion.latest))
                apps answered: com.example.app
                App Store Server API: no app refreshed
                anchors: Apple's roots and 1 more
                revocation check (OCSP): off
                ready to serve

                """)
        // The deployment example names a key file that is not in the repository.
        let missingKey = try await CLIRunner.run(["serve", "--check-config", "--config", "Examples/Deploy/serve.json"])
        #expect(missingKey.status == 66)
        #expect(missingKey.stderr.contains("private_key_file Examples/Deploy/AuthKey_ABCDE12345.p8: unreadable_file"), "\(missingKey.stderr)")
        let closed = try await CLIRunner.run([
            "serve", "--check-config", "--database", "postgres://receiptkit@127.0.0.1:1/receiptkit?sslmode=disable",
        ])
        #expect(closed.status == 69)
        #expect(closed.stderr.contains("connection refused (nothing listens at 127.0.0.1:1)"), "\(closed.stderr)")
    }

    @Test("the configuration reference holds the settings table as --list-settings --format markdown prints it")
    func configurationReferenceMatchesTheTable() async throws {
        let listed = try await CLIRunner.run(["serve", "--list-settings", "--format", "markdown"])
        #expect(listed.status == 0)
        let reference = try String(
            contentsOf: CLIRunner.packageRoot.appendingPathComponent("Sources/ReceiptService/Docs.docc/Configuration.md"),
            encoding: .utf8)
        #expect(reference.contains(listed.stdout), "regenerate the table: receiptkit serve --list-settings --format markdown")
        #expect(listed.stdout.contains("| `port` | `RECEIPTKIT_PORT` | `--port` | `8080` | 0–65535 |"))
    }

    @Test("--list-settings prints every setting with its variable, default and rule")
    func listSettings() async throws {
        let listed = try await CLIRunner.run(["serve", "--list-settings"])
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("request_timeout_seconds  (RECEIPTKIT_REQUEST_TIMEOUT_SECONDS)"))
        #expect(listed.stdout.contains("default: 10; 0.001–3600 (seconds)"))
        #expect(listed.stdout.contains("shared_secrets  (RECEIPTKIT_SHARED_SECRETS)\n    default: (secret); an object of strings; secret"))
        for name in ["api_failure_backoff_seconds", "api_retry_max_attempts", "max_receipt_bytes", "app_store_server_api"] {
            #expect(listed.stdout.contains("\n\(name)  (RECEIPTKIT_\(name.uppercased()))"), "\(name)")
        }
    }

    @Test("migrate_on_start false: serve refuses a ledger not at this build's schema until serve --migrate moves it")
    func migrateSeparately() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-migrate-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = "sqlite:" + directory.appendingPathComponent("ledger.sqlite").path
        let latest = LedgerSchemaVersion.latest
        let rowsOnly = ["--database", database, "--set", "migrate_on_start=false"]

        let check = try await CLIRunner.run(["serve", "--check-config", "--port", "9"] + rowsOnly)
        #expect(check.status == 69, "\(check.stderr)")
        #expect(check.stdout.contains(
            "database: \(database) (schema version 0: migrate_on_start is false, so serve refuses it until receiptkit serve --migrate moves it to \(latest))"),
            "\(check.stdout)")
        let refused = try await CLIRunner.run(["serve", "--port", "0"] + rowsOnly)
        #expect(refused.status == 69, "\(refused.stderr)")
        #expect(refused.stderr.contains(
            "receiptkit: database \(database): schema version 0, this build's is \(latest); migrate_on_start is false: run receiptkit serve --migrate"),
            "\(refused.stderr)")

        let migrated = try await CLIRunner.run(["serve", "--migrate", "--database", database])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stdout == "\(database): migrated from schema version 0 to \(latest)\n")
        let again = try await CLIRunner.run(["serve", "--migrate", "--database", database])
        #expect(again.stdout == "\(database): schema version \(latest), this build's: nothing to migrate\n")

        let server = try Server(rowsOnly + ["--anchor", "Examples/TestRoot.cer"])
        #expect((try await server.post("/verifyReceipt", json: try Self.body("Examples/sample.receipt")))["status"] as? Int == 0)
        #expect(server.stop() == 0)

        let both = try await CLIRunner.run(["serve", "--migrate", "--check-config"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--check-config and --migrate exclude each other"), "\(both.stderr)")
    }

    @Test("every flag the configuration reference names for a setting is an option of serve, and sets that setting")
    func settingFlagsExist() async throws {
        let help = try await CLIRunner.run(["serve", "--help"])
        let names = Set(ServiceSettings.descriptions.map(\.name))
        for (setting, flag) in ServiceConfiguration.settingFlags {
            #expect(names.contains(setting), "\(setting) is no setting")
            #expect(help.stdout.contains("  \(flag) "), "\(flag) is not among serve's options")
        }
        // A flag out of its rule is named as the flag, not as the setting's other sources.
        let refused = try await CLIRunner.run(["serve", "--port", "70000", "--database", "sqlite::memory:"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--port: port must be in [0, 65535], not 70000"), "\(refused.stderr)")
    }
}
