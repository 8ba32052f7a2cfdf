import AppStoreServerAPI
import Crypto
import Foundation
@testable import ReceiptService
import Testing

/// The service's settings: one table, three sources layered over the code's values (file, environment, command
/// line), every value checked once against its rule, each failure naming its source, and every setting reachable
/// from each source.
@Suite("Service settings")
struct ServiceSettingsTests {
    typealias S = SettingsSources

    // MARK: Sources and precedence

    @Test func laterSourcesWinAndTheCodeIsTheBase() throws {
        var code = VerifyReceiptConfiguration()
        code.requestTimeout = .seconds(7)
        code.healthTimeout = .seconds(4)
        code.maximumConnections = 9
        let read = try S.read(
            file: #"{"request_timeout_seconds": 5, "max_connections": 10, "port": 1}"#,
            environment: ["RECEIPTKIT_MAX_CONNECTIONS": "11", "RECEIPTKIT_PORT": "2"],
            set: ["port": "3"]
        ) {
            $0.verifyReceipt = code
            $0.port = 4
        }.settings
        #expect(read.verifyReceipt.healthTimeout == .seconds(4))  // only the code
        #expect(read.verifyReceipt.requestTimeout == .seconds(5))  // the file over the code
        #expect(read.verifyReceipt.maximumConnections == 11)  // the environment over the file
        #expect(read.port == 4)  // the typed flag over --set, the environment and the file
        #expect(try S.read(file: #"{"port": 1}"#, environment: ["RECEIPTKIT_PORT": "2"], set: ["port": "3"]).settings.port == 3)
    }

    @Test func aTimeoutIsReadToTheMillisecondFromEverySource() throws {
        for (text, expected) in [("0.5", Duration.milliseconds(500)), ("0.001", .milliseconds(1)), ("2.0006", .milliseconds(2001)), ("3600", .seconds(3600))] {
            #expect(try S.read(file: #"{"request_timeout_seconds": \#(text)}"#).settings.verifyReceipt.requestTimeout == expected)
            #expect(try S.read(environment: ["RECEIPTKIT_REQUEST_TIMEOUT_SECONDS": text]).settings.verifyReceipt.requestTimeout == expected)
            #expect(try S.read(set: ["request_timeout_seconds": text]).settings.verifyReceipt.requestTimeout == expected)
        }
    }

    @Test(arguments: ["request_timeout_seconds", "health_timeout_seconds", "header_read_timeout_seconds", "api_refresh_wait_seconds"])
    func aTimeoutOutOfRangeIsRefusedNamingItsSource(name: String) throws {
        for seconds in ["0", "0.0004", "-1", "3600.5", "1e9", "1e300"] {
            let file = try #require(S.refusal(file: "{\"\(name)\": \(seconds)}"))
            #expect(file.code == .malformedFile)
            #expect(file.reason.hasPrefix("--config "))
            #expect(file.reason.contains("serve.json: \(name) must be in [0.001, 3600], not "), "\(file.reason)")
            let variable = "RECEIPTKIT_" + name.uppercased()
            let environment = try #require(S.refusal(environment: [variable: seconds]))
            #expect(environment.code == .malformedEnvironment)
            #expect(environment.reason.hasPrefix("\(variable): \(name) must be in [0.001, 3600], not "))
            let flag = try #require(S.refusal(set: [name: seconds]))
            #expect(flag.code == .invalidSetting)
            #expect(flag.reason.hasPrefix("--set \(name): \(name) must be in [0.001, 3600], not "))
        }
    }

    @Test func valuesOfTheWrongKindAreRefusedWithTheirSource() throws {
        let port = try #require(S.refusal(file: #"{"port": "80"}"#))
        #expect(port.code == .malformedFile)
        #expect(port.reason.hasSuffix("serve.json: port must be a whole number"))
        let flag = try #require(S.refusal(environment: ["RECEIPTKIT_ALLOW_XCODE_RECEIPTS": "yes"]))
        #expect(flag.reason == "RECEIPTKIT_ALLOW_XCODE_RECEIPTS: allow_xcode_receipts must be true or false")
        let list = try #require(S.refusal(set: ["allowed_bundle_ids": "com.example.app"]))
        #expect(list.code == .invalidSetting)
        #expect(list.reason.hasPrefix("--set allowed_bundle_ids: allowed_bundle_ids is not JSON"))
        #expect(try S.read(set: ["allowed_bundle_ids": #"["com.example.app"]"#]).settings.verifyReceipt.allowedBundleIdentifiers == ["com.example.app"])
    }

    @Test func aSecretIsNeverQuoted() throws {
        let refused = try #require(S.refusal(environment: ["RECEIPTKIT_SHARED_SECRETS": #"{"com.example.app": 12345678}"#]))
        #expect(refused.code == .malformedEnvironment)
        #expect(refused.reason == "RECEIPTKIT_SHARED_SECRETS: shared_secrets must be an object of strings")
        let read = try S.read(environment: ["RECEIPTKIT_SHARED_SECRETS": #"{"com.example.app": "s3cret-value"}"#]).settings
        #expect(read.verifyReceipt.sharedSecrets == ["com.example.app": "s3cret-value"])
        let description = try #require(ServiceSettings.descriptions.first { $0.name == "shared_secrets" })
        #expect(description.isSecret)
        #expect(description.defaultValue == "(secret)")
    }

    // MARK: Names

    @Test func unknownNamesAreRefusedInTheFileAndOnTheCommandLineAndReportedFromTheEnvironment() throws {
        let typo = try #require(S.refusal(file: #"{"shared_secret": {"com.example.app": "x"}}"#))
        #expect(typo.code == .malformedFile)
        #expect(typo.reason.contains(#"unknown setting "shared_secret" (known: "#))
        let flag = try #require(S.refusal(set: ["request_timeout": "5"]))
        #expect(flag.code == .invalidSetting)
        #expect(flag.reason.hasPrefix(#"--set request_timeout: unknown setting "request_timeout""#))
        let read = try S.read(environment: ["RECEIPTKIT_SHARED_SECRET": "x", "RECEIPTKIT_PORT": "0", "HOME": "/root"])
        #expect(read.unknownVariables == ["RECEIPTKIT_SHARED_SECRET"])
        #expect(read.settings.port == 0)
    }

    @Test func aDuplicateNameInTheFileIsRefused() throws {
        let duplicate = try #require(S.refusal(file: #"{"port": 1, "port": 2}"#))
        #expect(duplicate.code == .malformedFile)
        #expect(duplicate.reason.hasSuffix("serve.json: line 1, column 22: not strict JSON (duplicate member name 'port' at byte 21)"), "\(duplicate.reason)")
        #expect(S.refusal(file: "[1]")?.reason.hasSuffix("serve.json: not a JSON object of settings") == true)
        // Where a mistake is: line and column, for a trailing comma, a comment, a missing quote.
        let cases: [(String, String)] = [
            ("{\n  \"port\": 1,\n}\n", "line 3, column 1: not strict JSON (expected a member name at byte 15)"),
            ("{\n  // the port\n  \"port\": 1\n}", "line 2, column 3: not strict JSON (expected a member name at byte 4)"),
            ("{\"host\": \"a\",\n \"port: 1}", "line 2, column 11: not strict JSON (unterminated string at byte 24)"),
        ]
        for (text, expected) in cases {
            let refused = try #require(S.refusal(file: text))
            #expect(refused.code == .malformedFile)
            #expect(refused.reason.hasSuffix("serve.json: " + expected), "\(refused.reason)")
        }
        // JSON null is no value.
        #expect(try S.read(file: #"{"port": null}"#).settings.port == 8080)
    }

    @Test func anchorsAccumulateAndResolveAgainstTheFilesDirectory() throws {
        let read = try S.read(
            file: #"{"anchors": ["root.cer", "/etc/absolute.cer"]}"#,
            environment: ["RECEIPTKIT_ANCHORS": #"["env.cer"]"#]
        ) { $0.anchorFiles = ["flag.cer"] }
        let directory = read.directory.path
        #expect(read.settings.anchorFiles == [directory + "/root.cer", "/etc/absolute.cer", "env.cer", "flag.cer"])
    }

    // MARK: Every setting, every source

    /// A value each setting's rule accepts and that differs from its default, as text.
    static func sample(_ setting: ServiceSettingDescription) -> String? {
        switch setting.rule {
        case "true or false": return setting.defaultValue == "true" ? "false" : "true"
        case "a list of strings": return #"["com.example.sample"]"#
        case "a list of paths": return #"["/sample.cer"]"#
        case "an object of strings": return #"{"com.example.sample": "sample"}"#
        case "a list of tokens (24+ printable characters, no space or comma)": return #"["sample-token-0123456789abcdef"]"#
        case "{bundle id: {product id: [names]}}": return #"{"com.example.sample": {"com.example.sample.pro": ["pro"]}}"#
        default: break
        }
        if setting.name == "host" { return "localhost" }  // only read here: nothing binds
        if setting.name == "database" { return "sqlite::memory:" }
        if setting.name == "metrics_listen" { return "127.0.0.1:9090" }  // only read here: nothing binds
        if setting.name == "notification_backfill" { return #"{"interval_seconds": 3600, "look_back_seconds": 86400}"# }
        if setting.name == "notification_targets" { return #"[{"bundle_id": "com.example.sample", "url": "https://example.com/n"}]"# }
        if setting.name == "notification_forwarding" { return #"{"deadline_seconds": 3600, "max_in_flight": 2}"# }
        if setting.name == "app_store_server_api" {
            return #"[{"bundle_id": "com.example.sample", "issuer_id": "i", "key_id": "k", "private_key_file": "/k.p8"}]"#
        }
        // A range "lo–hi": its upper bound (every default here is below it).
        guard let bounds = setting.rule.split(separator: " ").first?.split(separator: "–"), bounds.count == 2 else {
            return nil
        }
        return String(bounds[1])
    }

    @Test func everySettingIsReachableFromTheFileTheEnvironmentAndTheCommandLine() throws {
        let defaults = ServiceSettings()
        for description in ServiceSettings.descriptions {
            let sample = try #require(Self.sample(description), "no sample for \(description.name)")
            let setting = try #require(ServiceSettings.setting(named: description.name))
            // In the file, JSON: a string is quoted; numbers, true, lists and objects are as the text says.
            let isJSON = sample.hasPrefix("[") || sample.hasPrefix("{") || sample == "true" || sample == "false" || Double(sample) != nil
            let fileValue = isJSON ? sample : "\"\(sample)\""
            let document = "{\"\(description.name)\": \(fileValue)}"
            let fromFile = try #require(try? S.read(file: document).settings, "\(document)")
            let fromEnvironment = try S.read(environment: [description.environmentVariable: sample]).settings
            let fromFlag = try S.read(set: [description.name: sample]).settings
            for read in [fromFile, fromEnvironment, fromFlag] {
                #expect(setting.show(read) != setting.show(defaults) || description.isSecret, "\(description.name)")
                #expect(setting.show(read) == setting.show(fromFlag), "\(description.name)")
            }
            #expect(description.environmentVariable == "RECEIPTKIT_" + description.name.uppercased())
        }
        // The knobs that had no setting before have one now.
        let names = Set(ServiceSettings.descriptions.map(\.name))
        for name in [
            "api_failure_backoff_seconds", "api_refused_key_pause_seconds", "api_max_refreshes",
            "api_request_timeout_seconds", "api_retry_max_attempts", "notification_max_clock_skew_seconds",
            "max_receipt_bytes",
        ] {
            #expect(names.contains(name), "\(name)")
        }
    }

    // MARK: The notification backfill

    @Test("notification_backfill: each member optional and kept otherwise, every source, its rule and unknown members refused")
    func notificationBackfillSetting() throws {
        let defaults = NotificationBackfillConfiguration()
        #expect(defaults.isEnabled && defaults.interval == .seconds(900) && defaults.lookBack == .seconds(604_800))
        let partial = try S.read(file: #"{"notification_backfill": {"interval_seconds": 120.5}}"#).settings
        #expect(partial.verifyReceipt.notifications.backfill.interval == .milliseconds(120_500))
        #expect(partial.verifyReceipt.notifications.backfill.isEnabled)
        #expect(partial.verifyReceipt.notifications.backfill.lookBack == .seconds(604_800))
        let off = try S.read(environment: ["RECEIPTKIT_NOTIFICATION_BACKFILL": #"{"enabled": false}"#]).settings
        #expect(!off.verifyReceipt.notifications.backfill.isEnabled)
        let setting = try #require(ServiceSettings.setting(named: "notification_backfill"))
        #expect(setting.show(off) == "off")
        #expect(setting.show(ServiceSettings()) == "every 900 s, first 604800 s back")
        let longest = try S.read(set: ["notification_backfill": #"{"look_back_seconds": 15552000}"#]).settings
        #expect(longest.verifyReceipt.notifications.backfill.lookBack == .seconds(15_552_000))

        let refusals: [(String, String)] = [
            (#"{"interval": 60}"#, #"notification_backfill has an unknown setting "interval" (known: enabled, interval_seconds, look_back_seconds)"#),
            (#"{"interval_seconds": 59}"#, "notification_backfill interval_seconds must be in [60, 86400], not 59"),
            (#"{"look_back_seconds": 15552001}"#, "notification_backfill look_back_seconds must be in [60, 15552000], not 15552001"),
            (#"{"enabled": "yes"}"#, "notification_backfill enabled must be true or false"),
            (#"{"interval_seconds": "900"}"#, "notification_backfill interval_seconds must be a number"),
            (#"[900]"#, "notification_backfill must be an object (enabled, interval_seconds, look_back_seconds)"),
        ]
        for (value, message) in refusals {
            let file = try #require(S.refusal(file: #"{"notification_backfill": "# + value + "}"), "\(value)")
            #expect(file.code == .malformedFile)
            #expect(file.reason.hasSuffix("serve.json: " + message), "\(file.reason)")
            let flag = try #require(S.refusal(set: ["notification_backfill": value]))
            #expect(flag.reason == "--set notification_backfill: " + message, "\(flag.reason)")
        }
        // Given in code, the rule holds too.
        var code = VerifyReceiptConfiguration()
        code.notifications.backfill.interval = .seconds(1)
        #expect(throws: ServiceStartupError.self) { try ServiceSettings(verifyReceipt: code).validate() }
    }

    // MARK: Forwarding

    @Test("notification_targets: each target's rule, names default to the URL without credentials, secrets never shown")
    func notificationTargetsSetting() throws {
        let file = #"{"notification_targets": [{"bundle_id": "com.example.app", "url": "https://u:p@backend.example/apple?token=t", "hmac_secret": "0123456789abcdef"}, {"bundle_id": "com.example.app", "url": "http://10.0.0.2:8080/n", "name": "analytics"}]}"#
        let read = try S.read(file: file).settings
        let targets = read.verifyReceipt.notifications.forwarding.targets
        let hashed = NotificationTarget.defaultName(for: "https://u:p@backend.example/apple?token=t")
        #expect(hashed.hasPrefix("https://backend.example#") && hashed.count == "https://backend.example#".count + 8, "\(hashed)")
        #expect(NotificationTarget.defaultName(for: "http://10.0.0.2:8080/hooks/T0/SECRET") .hasPrefix("http://10.0.0.2:8080#"))
        #expect(!NotificationTarget.defaultName(for: "http://10.0.0.2:8080/hooks/T0/SECRET").contains("SECRET"))
        #expect(hashed != NotificationTarget.defaultName(for: "https://u:p@backend.example/apple?token=u"))
        #expect(targets.map(\.name) == [hashed, "analytics"])
        #expect(targets.first?.url == "https://u:p@backend.example/apple?token=t")
        #expect(targets.first?.hmacSecret == "0123456789abcdef" && targets.last?.hmacSecret == nil)
        let setting = try #require(ServiceSettings.setting(named: "notification_targets"))
        #expect(setting.show(read) == "[\(hashed), analytics]")
        #expect(setting.show(ServiceSettings()) == "none")
        #expect(setting.isSecret)

        let entry = { (members: String) in #"[{"bundle_id": "com.example.app", "url": "https://b.example/n""# + members + "}]" }
        let refusals: [(String, String)] = [
            (entry(#", "hmac_secret": "short""#), "notification_targets[0]: hmac_secret must be at least 16 bytes"),
            (#"[{"bundle_id": "com.example.app", "url": "ftp://b.example/n"}]"#, "notification_targets[0]: url must be an http or https URL with a host"),
            (#"[{"bundle_id": "com.example.app", "url": "https://b.example/n#x"}]"#, "notification_targets[0]: url must not have a fragment"),
            (#"[{"bundle_id": "", "url": "https://b.example/n"}]"#, "notification_targets[0]: bundle_id must not be empty"),
            (#"[{"url": "https://b.example/n"}]"#, "notification_targets[0].bundle_id is missing"),
            (#"[{"bundle_id": "com.example.app"}]"#, "notification_targets[0].url is missing"),
            (entry(#", "secret": "x""#), #"notification_targets[0]: unknown setting "secret" (known: bundle_id, hmac_secret, name, url)"#),
            (entry(#", "name": """#), "notification_targets[0]: name must be 1 to 200 printable ASCII characters"),
            (#"[{"bundle_id": "a", "url": "https://u:p@b.example/n", "name": "x"}, {"bundle_id": "b", "url": "https://u:p@b.example/m", "name": "x"}]"#,
             "notification_targets[1]: the name x is given twice (each target's name must differ)"),
            (#"[{"bundle_id": "a", "url": "https://u:p@b.example/n", "hmac_secret": "short"}]"#,
             "notification_targets[0]: hmac_secret must be at least 16 bytes"),
            (#"{"bundle_id": "a"}"#, "notification_targets must be a list"),
        ]
        for (value, message) in refusals {
            let flag = try #require(S.refusal(set: ["notification_targets": value]), "\(value)")
            #expect(flag.reason == "--set notification_targets: " + message, "\(flag.reason)")
            // A secret or a URL (which may hold one) is never quoted.
            #expect(!flag.reason.contains("short") && !flag.reason.contains("u:p@"))
        }
    }

    @Test("notification_forwarding: each member optional, its rule, unknown members refused")
    func notificationForwardingSetting() throws {
        let defaults = NotificationForwardingConfiguration()
        #expect(defaults.deadline == .seconds(259_200) && defaults.attemptTimeout == .seconds(10) && defaults.maximumInFlight == 32)
        let read = try S.read(environment: ["RECEIPTKIT_NOTIFICATION_FORWARDING": #"{"attempt_timeout_seconds": 2.5}"#]).settings
        #expect(read.verifyReceipt.notifications.forwarding.attemptTimeout == .milliseconds(2_500))
        #expect(read.verifyReceipt.notifications.forwarding.deadline == .seconds(259_200))
        let setting = try #require(ServiceSettings.setting(named: "notification_forwarding"))
        #expect(setting.show(ServiceSettings()) == "for 259200 s, 10 s an attempt, 32 at once")
        let refusals: [(String, String)] = [
            (#"{"deadline_seconds": 59}"#, "notification_forwarding deadline_seconds must be in [60, 2592000], not 59"),
            (#"{"attempt_timeout_seconds": 301}"#, "notification_forwarding attempt_timeout_seconds must be in [0.001, 300], not 301"),
            (#"{"max_in_flight": 0}"#, "notification_forwarding max_in_flight must be an integer in [1, 1024]"),
            (#"{"max_in_flight": 1.5}"#, "notification_forwarding max_in_flight must be an integer in [1, 1024]"),
            (#"{"deadline": 60}"#, #"notification_forwarding has an unknown setting "deadline" (known: attempt_timeout_seconds, deadline_seconds, max_in_flight)"#),
        ]
        for (value, message) in refusals {
            let flag = try #require(S.refusal(set: ["notification_forwarding": value]), "\(value)")
            #expect(flag.reason == "--set notification_forwarding: " + message, "\(flag.reason)")
        }
        var code = VerifyReceiptConfiguration()
        code.notifications.forwarding.maximumInFlight = 0
        #expect(throws: ServiceStartupError.self) { try ServiceSettings(verifyReceipt: code).validate() }
    }

    // MARK: Checked once, code included

    @Test func theInFlightBudgetMustCoverOneBodyOfTheLargestSize() throws {
        let file = try #require(S.refusal(file: #"{"max_body_bytes": 4096, "max_in_flight_body_bytes": 2048}"#))
        #expect(file.code == .malformedFile)
        #expect(file.reason.hasSuffix(
            "serve.json: max_in_flight_body_bytes (2048) must be at least max_body_bytes (4096): "
                + "a body of the largest size could never be admitted"))
        let flag = try #require(S.refusal(set: ["max_in_flight_body_bytes": "1024"]))
        #expect(flag.code == .invalidSetting)
        #expect(flag.reason.hasPrefix("--set max_in_flight_body_bytes: max_in_flight_body_bytes (1024) must be at least"))
        #expect(try S.read(set: ["max_in_flight_body_bytes": "3145728"]).settings.verifyReceipt.maximumInFlightBodyBytes == 3_145_728)
    }

    @Test("a base_url the client refuses is refused when the settings are read, naming its source")
    func baseURLIsCheckedWithTheSettings() throws {
        let entry = #"[{"bundle_id":"com.example.app","issuer_id":"i","key_id":"K","private_key_file":"k.p8","base_url":"http://example.com"}]"#
        let environment = try #require(S.refusal(environment: ["RECEIPTKIT_APP_STORE_SERVER_API": entry]))
        #expect(environment.code == .malformedEnvironment)
        #expect(
            environment.reason == "RECEIPTKIT_APP_STORE_SERVER_API: app_store_server_api[0]: the base URL http://example.com "
                + "is plain http to a host that is not a loopback address (127.0.0.1, [::1])", "\(environment.reason)")
        let file = try #require(S.refusal(file: #"{"app_store_server_api": "# + entry + "}"))
        #expect(file.code == .malformedFile)
        #expect(file.reason.hasSuffix("serve.json: app_store_server_api[0]: the base URL http://example.com is plain http to a host that is not a loopback address (127.0.0.1, [::1])"), "\(file.reason)")
        // Accepted rules pass: https anywhere, http to a loopback address.
        for url in ["https://api.example.com/", "http://127.0.0.1:9000", "http://[::1]:80"] {
            let fine = entry.replacingOccurrences(of: "http://example.com", with: url)
            #expect(try S.read(environment: ["RECEIPTKIT_APP_STORE_SERVER_API": fine]).settings.apps.first?.baseURL == url)
        }
    }

    /// The deployment guide's example settings file (`Examples/Deploy/serve.json`) is valid settings.
    @Test("the deployment example's serve.json reads as the guide describes it")
    func deploymentExampleLoads() throws {
        let example = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/Deploy/serve.json")
        let settings = try S.read { $0.settingsFile = example.path }.settings
        #expect(settings.host == "127.0.0.1")
        #expect(settings.database.hasPrefix("postgres://"))
        #expect(settings.verifyReceipt.allowedBundleIdentifiers == ["com.example.app"])
        #expect(settings.apps.map(\.bundleIdentifier) == ["com.example.app"])
        // Its key file is resolved against the settings file's directory, as the guide says.
        #expect(settings.apps.first?.privateKeyFile == example.deletingLastPathComponent().appendingPathComponent("AuthKey_ABCDE12345.p8").path)
    }

    @Test("a relative SQLite path in a settings file is the file's neighbour; elsewhere, the working directory's")
    func databasePathsResolveLikeOtherPaths() throws {
        let fromFile = try S.read(file: #"{"database": "sqlite:ledger.sqlite"}"#)
        #expect(fromFile.settings.database == "sqlite:" + fromFile.directory.appendingPathComponent("ledger.sqlite").path)
        for kept in ["sqlite::memory:", "sqlite:/var/lib/receiptkit/ledger.sqlite", "postgres://rk@db/rk"] {
            #expect(try S.read(file: #"{"database": "\#(kept)"}"#).settings.database == kept)
        }
        #expect(try S.read(environment: ["RECEIPTKIT_DATABASE": "sqlite:ledger.sqlite"]).settings.database == "sqlite:ledger.sqlite")
        #expect(try S.read(set: ["database": "sqlite:ledger.sqlite"]).settings.database == "sqlite:ledger.sqlite")
    }

    @Test("secrets from files (RECEIPTKIT_…_FILE), RECEIPTKIT_DATABASE_URL, and one setting given twice refused")
    func fileVariablesAndAliases() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-secrets-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secrets = directory.appendingPathComponent("shared_secrets")
        try Data(#"{"com.example.app":"s3cret"}"#.utf8 + [0x0A]).write(to: secrets)
        let database = directory.appendingPathComponent("database_url")
        try Data("postgres://rk:pa55@db.internal/rk\r\n".utf8).write(to: database)

        let read = try S.read(environment: [
            "RECEIPTKIT_SHARED_SECRETS_FILE": secrets.path, "RECEIPTKIT_DATABASE_URL_FILE": database.path,
        ]).settings
        #expect(read.verifyReceipt.sharedSecrets == ["com.example.app": "s3cret"])
        #expect(read.database == "postgres://rk:pa55@db.internal/rk")
        #expect(try S.read(environment: ["RECEIPTKIT_DATABASE_URL": "sqlite::memory:"]).settings.database == "sqlite::memory:")

        let twice = try #require(S.refusal(environment: [
            "RECEIPTKIT_DATABASE": "sqlite::memory:", "RECEIPTKIT_DATABASE_URL": "sqlite:x.sqlite",
        ]))
        #expect(twice.code == .malformedEnvironment)
        #expect(twice.reason == "RECEIPTKIT_DATABASE: database is given by RECEIPTKIT_DATABASE and RECEIPTKIT_DATABASE_URL: set one of them")
        let both = try #require(S.refusal(environment: [
            "RECEIPTKIT_SHARED_SECRETS": "{}", "RECEIPTKIT_SHARED_SECRETS_FILE": secrets.path,
        ]))
        #expect(both.reason.hasSuffix("shared_secrets is given by RECEIPTKIT_SHARED_SECRETS and RECEIPTKIT_SHARED_SECRETS_FILE: set one of them"))
        let missing = try #require(S.refusal(environment: ["RECEIPTKIT_SHARED_SECRETS_FILE": "/nonexistent/secret"]))
        #expect(missing.code == .unreadableFile)
        #expect(missing.reason.hasPrefix("RECEIPTKIT_SHARED_SECRETS_FILE /nonexistent/secret: "))
        // A value read from a file is checked like any other, and named by its variable; never quoted (a secret).
        try Data("not json".utf8).write(to: secrets)
        let malformed = try #require(S.refusal(environment: ["RECEIPTKIT_SHARED_SECRETS_FILE": secrets.path]))
        #expect(malformed.code == .malformedEnvironment)
        #expect(malformed.reason.hasPrefix("RECEIPTKIT_SHARED_SECRETS_FILE: shared_secrets"))
        #expect(!malformed.reason.contains("not json"))
    }

    @Test func appsGivenInCodeMeetTheRuleOfTheSettingsFile() throws {
        let key = try AppStoreServerAPIKey(issuerID: "issuer", keyID: "KEY1", privateKey: .init())
        let app = try AppStoreServerAPIAppConfiguration(bundleIdentifier: "com.example.app", key: key, baseURL: "http://127.0.0.1:9")
        var code = VerifyReceiptConfiguration()
        code.appStoreServerAPI.apps = [app, app]
        let refused = #expect(throws: ServiceStartupError.self) { try ServiceSettings(verifyReceipt: code).validate() }
        #expect(refused?.code == .invalidSetting)
        #expect(refused?.reason == "app_store_server_api: bundle_id com.example.app is configured twice")
        code.appStoreServerAPI.apps = [app]
        try ServiceSettings(verifyReceipt: code).validate()
    }

    @Test func theDefaultsMeetEveryRule() throws {
        try ServiceSettings().validate()
    }

    @Test func valuesGivenInCodeMeetTheSameRules() throws {
        var code = VerifyReceiptConfiguration()
        code.appStoreServerAPI.refreshWait = .zero
        let refused = #expect(throws: ServiceStartupError.self) { try ServiceSettings(verifyReceipt: code).validate() }
        #expect(refused?.code == .invalidSetting)
        #expect(refused?.reason == "api_refresh_wait_seconds must be in [0.001, 3600], not 0")
        // The embedding code that composes the service itself meets them too.
        let components = #expect(throws: ServiceStartupError.self) {
            try ServiceComponents(configuration: code, ledger: StalledLedger(), now: { Date() })
        }
        #expect(components?.reason == "api_refresh_wait_seconds must be in [0.001, 3600], not 0")
    }
}
