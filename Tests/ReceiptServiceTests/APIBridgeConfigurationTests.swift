import AppStoreJWS
import AppStoreServerAPI
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
@testable import ReceiptService
import Testing

/// The settings file's App Store Server API keys: strict like the rest of the file, the key file read at start with
/// the usual startup errors, and its contents never in a message.
@Suite("App Store Server API settings")
struct APIBridgeConfigurationTests {
    typealias B = BuildApplicationTests

    static func parse(_ json: String) throws -> (settings: ServiceSettings, directory: URL) {
        let read = try SettingsSources.read(file: json)
        return (read.settings, read.directory)
    }

    /// One `app_store_server_api` entry with `extra` members.
    static func app(_ extra: String = "", file: String = "key.p8") -> String {
        #"{"bundle_id": "com.example.app", "issuer_id": "issuer", "key_id": "KEY1", "private_key_file": "\#(file)""#
            + extra + "}"
    }

    /// A settings document of one entry.
    static func entry(_ extra: String = "", file: String = "key.p8") -> String {
        #"{"app_store_server_api": ["# + Self.app(extra, file: file) + "]}"
    }

    /// The message a refused document is refused with, after the file's name.
    static func refusal(_ json: String) -> String? {
        guard let error = SettingsSources.refusal(file: json), error.code == .malformedFile,
            let colon = error.reason.range(of: "serve.json: ")
        else { return nil }
        return String(error.reason[colon.upperBound...])
    }

    @Test("entries parse; the refresh interval and wait apply; defaults are one hour and three seconds")
    func entriesParseAndApply() throws {
        let (file, directory) = try Self.parse(
            #"{"app_store_server_api": [{"bundle_id": "com.example.app", "issuer_id": "issuer", "key_id": "KEY1", "#
                + #""private_key_file": "key.p8", "base_url": "http://127.0.0.1:9", "environment": "sandbox", "#
                + #""app_apple_id": 1234567890}], "#
                + #""api_refresh_interval_seconds": 900, "api_refresh_wait_seconds": 0.25}"#)
        let entry = try #require(file.apps.first)
        #expect(entry.bundleIdentifier == "com.example.app")
        #expect(entry.privateKeyFile == directory.appendingPathComponent("key.p8").path)  // next to the file
        #expect(entry.baseURL == "http://127.0.0.1:9")
        #expect(entry.environment == "sandbox")
        #expect(entry.appAppleID == 1_234_567_890)
        #expect(try Self.parse(Self.entry()).settings.apps.first?.appAppleID == nil)
        let defaults = VerifyReceiptConfiguration()
        #expect(defaults.appStoreServerAPI.refreshInterval == .seconds(3600))
        #expect(defaults.appStoreServerAPI.refreshWait == .seconds(3))
        #expect(defaults.appStoreServerAPI.apps.isEmpty)
        #expect(defaults.appStoreServerAPI.failureBackoff == .seconds(60))
        #expect(defaults.appStoreServerAPI.maximumRefreshes == 256)
        #expect(file.verifyReceipt.appStoreServerAPI.refreshInterval == .seconds(900))
        #expect(file.verifyReceipt.appStoreServerAPI.refreshWait == .milliseconds(250))
    }

    @Test("unknown keys, missing keys, another environment, an app twice and intervals out of range are refused")
    func malformedEntriesAreRefused() {
        #expect(Self.refusal(Self.entry(#", "privat_key": "x""#))?.hasPrefix(#"app_store_server_api[0]: unknown setting "privat_key""#) == true)
        #expect(Self.refusal(#"{"app_store_server_api": [{"bundle_id": "com.example.app"}]}"#) == "app_store_server_api[0].issuer_id is missing")
        #expect(Self.refusal(Self.entry(#", "environment": "xcode""#))
            == "app_store_server_api[0]: environment must be production or sandbox")
        for id in [#""1234""#, "0", "-5", "1.5", "9223372036854775808"] {
            #expect(Self.refusal(Self.entry(#", "app_apple_id": \#(id)"#))
                == "app_store_server_api[0].app_apple_id must be a positive integer")
        }
        #expect(Self.refusal(Self.entry(file: ""))
            == "app_store_server_api[0]: bundle_id, issuer_id, key_id and the key file must not be empty")
        // Exactly one key file: the private key (refresh and mirror) or its public half (mirror only).
        #expect(Self.refusal(Self.entry(#", "public_key_file": "key.pem""#))
            == "app_store_server_api[0]: give exactly one of private_key_file and public_key_file")
        let neither = #"{"app_store_server_api": [{"bundle_id": "com.example.app", "issuer_id": "i", "key_id": "K"}]}"#
        #expect(Self.refusal(neither) == "app_store_server_api[0]: give exactly one of private_key_file and public_key_file")
        let publicWithURL = #"{"app_store_server_api": [{"bundle_id": "com.example.app", "issuer_id": "i", "key_id": "K", "#
            + #""public_key_file": "key.pem", "base_url": "http://127.0.0.1:9"}]}"#
        let publicWithID = #"{"app_store_server_api": [{"bundle_id": "com.example.app", "issuer_id": "i", "key_id": "K", "#
            + #""public_key_file": "key.pem", "app_apple_id": 1}]}"#
        #expect(Self.refusal(publicWithID)
            == "app_store_server_api[0]: app_apple_id needs private_key_file (only the refresh's clients check it)")
        #expect(Self.refusal(publicWithURL)
            == "app_store_server_api[0]: base_url needs private_key_file (a public key is never sent to Apple)")
        let twice = #"{"app_store_server_api": ["# + Self.app() + ", " + Self.app() + "]}"
        #expect(Self.refusal(twice) == "app_store_server_api[1]: bundle_id com.example.app is configured twice")
        for seconds in ["59", "2592001", "-1"] {
            #expect(Self.refusal(#"{"api_refresh_interval_seconds": \#(seconds)}"#)
                == "api_refresh_interval_seconds must be in [60, 2592000], not \(seconds)")
        }
        #expect(Self.refusal(#"{"api_refresh_wait_seconds": 0}"#) == "api_refresh_wait_seconds must be in [0.001, 3600], not 0")
    }

    @Test("the key file: missing or a FIFO is unreadable_file, not a .p8 or a base URL refused is malformed_file, never quoted")
    func keyFileStartupErrors() async throws {
        try await B.inDirectory { directory in
            let settings = directory.appendingPathComponent("serve.json")
            func startupError(_ json: String) async throws -> ServiceStartupError? {
                try Data(json.utf8).write(to: settings)
                return await B.startupError { $0.settingsFile = settings.path }
            }
            let missing = try await startupError(Self.entry(file: "none.p8"))
            #expect(missing?.code == .unreadableFile)
            #expect(missing?.reason.hasPrefix("private_key_file \(directory.appendingPathComponent("none.p8").path): ") == true)

            // A FIFO named by mistake is refused at once, not read (a blocking open would hang startup).
            let fifo = directory.appendingPathComponent("fifo.p8")
            #expect(mkfifo(fifo.path, 0o600) == 0)
            let notRegular = try await startupError(Self.entry(file: "fifo.p8"))
            #expect(notRegular?.code == .unreadableFile)
            #expect(notRegular?.reason == "private_key_file \(fifo.path): not a regular file")

            let secret = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWJ5dGVz\n-----END PRIVATE KEY-----\n"
            try Data(secret.utf8).write(to: directory.appendingPathComponent("key.p8"))
            let malformed = try await startupError(Self.entry())
            #expect(malformed?.code == .malformedFile)
            #expect(malformed?.reason.hasPrefix("app_store_server_api com.example.app: invalid_private_key: ") == true)
            #expect(malformed?.reason.contains("c2VjcmV0") == false)

            let key = P256.Signing.PrivateKey()
            try Data(key.pemRepresentation.utf8).write(to: directory.appendingPathComponent("key.p8"))
            let plain = try await startupError(Self.entry(#", "base_url": "http://example.com""#))
            #expect(plain?.code == .malformedFile)
            // Refused with the settings, before any key is read: the reason names the file and the entry.
            #expect(plain?.reason.contains("serve.json: app_store_server_api[0]: the base URL http://example.com is plain http") == true, "\(plain?.reason ?? "")")

            // The app Apple ID reaches both clients' configurations and their verification policy.
            let read = try Self.parse(Self.entry(#", "app_apple_id": 1234567890"#, file: directory.appendingPathComponent("key.p8").path))
            let apps = try ServiceConfiguration.apps(read.settings.apps)
            #expect(apps.first?.production?.appAppleID == 1_234_567_890)
            #expect(apps.first?.sandbox?.verificationPolicy.appAppleID == 1_234_567_890)

            // A good key starts the service (run, so that its ledger is shut down again).
            try Data(Self.entry(#", "base_url": "http://127.0.0.1:9""#).utf8).write(to: settings)
            var configuration = ServiceConfiguration(logger: B.quiet)
            configuration.settingsFile = settings.path
            configuration.database = "sqlite::memory:"
            configuration.port = 0
            try await buildApplication(configuration: configuration).test(.live) { client in
                try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
            }
        }
    }

    @Test("public_key_file: read at start (PEM P-256, else malformed_file, never quoted; missing: unreadable_file); the mirror then takes that key's tokens and nothing is refreshed")
    func publicKeyFile() async throws {
        try await B.inDirectory { directory in
            let settings = directory.appendingPathComponent("serve.json")
            let pem = directory.appendingPathComponent("key.pem")
            let entry = #"{"app_store_server_api": [{"bundle_id": "com.example.app", "issuer_id": "issuer", "#
                + #""key_id": "KEY1", "public_key_file": "key.pem"}]}"#
            try Data(entry.utf8).write(to: settings)
            let (parsed, folder) = try Self.parse(entry)
            #expect(parsed.apps.first?.privateKeyFile == nil)
            #expect(parsed.apps.first?.publicKeyFile == folder.appendingPathComponent("key.pem").path)  // next to the file
            #expect(Self.refusal(#"{"app_store_server_api": [{"bundle_id": "a", "issuer_id": "i", "key_id": "K", "public_key_file": ""}]}"#)
                == "app_store_server_api[0]: bundle_id, issuer_id, key_id and the key file must not be empty")

            let missing = await B.startupError { $0.settingsFile = settings.path }
            #expect(missing?.code == .unreadableFile)
            #expect(missing?.reason.hasPrefix("public_key_file \(pem.path): ") == true, "\(missing?.reason ?? "")")

            let notAPublicKey = "app_store_server_api com.example.app: public_key_file \(pem.path): not a PEM P-256 public key"
            // Junk in a public key's armour, the private key itself (the likeliest mistake), a key on another curve.
            let privateKey = P256.Signing.PrivateKey()
            for wrong in [
                "-----BEGIN PUBLIC KEY-----\nc2VjcmV0LWJ5dGVz\n-----END PUBLIC KEY-----\n", privateKey.pemRepresentation,
                P384.Signing.PrivateKey().publicKey.pemRepresentation,
            ] {
                try Data(wrong.utf8).write(to: pem)
                let malformed = await B.startupError { $0.settingsFile = settings.path }
                #expect(malformed?.code == .malformedFile)
                #expect(malformed?.reason == notAPublicKey)
                #expect(malformed?.reason.contains("c2VjcmV0") == false)
                #expect(malformed?.reason.contains("PRIVATE") == false)
            }

            let key = P256.Signing.PrivateKey()
            try Data(key.publicKey.pemRepresentation.utf8).write(to: pem)
            let logs = CapturedLogs()
            var configuration = ServiceConfiguration(logger: logs.logger)
            configuration.settingsFile = settings.path
            configuration.database = "sqlite::memory:"
            configuration.port = 0
            try await buildApplication(configuration: configuration).test(.live) { client in
                let apiKey = try AppStoreServerAPIKey(issuerID: "issuer", keyID: "KEY1", privateKey: key)
                let token = try BearerToken(key: apiKey, bundleIdentifier: "com.example.app", now: Date(), lifetime: .seconds(600)).compact
                var headers: HTTPFields = [:]
                headers[.authorization] = "Bearer " + token
                // Served and authenticated with the configured key: an unknown id is Apple's 404, not 401.
                try await client.execute(uri: "/inApps/v1/transactions/1", method: .get, headers: headers) { response in
                    #expect(response.status == .notFound)
                    #expect(String(buffer: response.body) == #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#)
                }
            }
            // The start-up line says what is mirrored, that nothing is refreshed, and the mirror's routes.
            let starting = try #require(logs.all.first { $0.message == "service starting" })
            #expect(starting.metadata["app_store_server_api"] == "none")
            #expect(starting.metadata["app_store_server_api_mirror"] == "com.example.app (Production),com.example.app (Sandbox)")
            #expect(starting.metadata["routes"]?.description.contains("GET /inApps/v1/transactions/{id}") == true)
        }
    }

    @Test("bridge settings given in code out of range are refused at startup (invalid_setting), naming the setting and its rule")
    func outOfRangeSettingsInCode() async throws {
        let key = try AppStoreServerAPIKey(issuerID: "issuer", keyID: "KEY1", privateKey: P256.Signing.PrivateKey())
        let app = try AppStoreServerAPIAppConfiguration(
            bundleIdentifier: "com.example.app", key: key, baseURL: "http://127.0.0.1:9")
        let cases: [(String, @Sendable (inout AppStoreServerAPIBridgeConfiguration) -> Void)] = [
            ("api_refresh_wait_seconds must be in [0.001, 3600], not 0", { $0.refreshWait = .zero }),
            ("api_refresh_interval_seconds must be in [60, 2592000], not -1", { $0.refreshInterval = .seconds(-1) }),
            ("api_request_timeout_seconds must be in [0.001, 3600], not 0", { $0.requestTimeout = .zero }),
            ("api_failure_backoff_seconds must be in [0, 86400], not -1", { $0.failureBackoff = .seconds(-1) }),
            ("api_refused_key_pause_seconds must be in [0, 86400], not -1", { $0.refusedKeyPause = .seconds(-1) }),
            ("api_max_refreshes must be in [1, 1000000], not 0", { $0.maximumRefreshes = 0 }),
            ("api_retry_max_attempts must be in [1, 10], not 0", { $0.retryPolicy.maximumAttempts = 0 }),
        ]
        for (reason, adjust) in cases {
            let error = await B.startupError {
                $0.verifyReceipt.appStoreServerAPI.apps = [app]
                adjust(&$0.verifyReceipt.appStoreServerAPI)
            }
            #expect(error?.code == .invalidSetting, "\(reason)")
            #expect(error?.reason == reason)
        }
    }
}
