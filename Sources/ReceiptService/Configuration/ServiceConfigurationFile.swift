import struct Foundation.Data
import class Foundation.JSONDecoder
import AppStoreJWS
import ReceiptKit

/// The `receiptkit serve --config FILE` document (JSON). Every key is optional; unknown keys are an error, so a
/// misspelt `shared_secrets` never silently turns a check off.
///
/// ```json
/// {
///   "database": "sqlite:/var/lib/receiptkit/ledger.sqlite",
///   "host": "127.0.0.1", "port": 8080,
///   "allowed_bundle_ids": ["com.example.app"],
///   "shared_secrets": {"com.example.app": "0123456789abcdef0123456789abcdef"},
///   "allow_xcode_receipts": false,
///   "anchors": ["TestRoot.cer"],
///   "max_body_bytes": 3145728,
///   "request_timeout_seconds": 10,
///   "header_read_timeout_seconds": 10,
///   "max_connections": 1024,
///   "max_in_flight_body_bytes": 67108864,
///   "max_concurrent_validations": 8,
///   "notification_max_age_seconds": 604800,
///   "check_revocation": false,
///   "app_store_server_api": [
///     {"bundle_id": "com.example.app", "issuer_id": "57246542-96fe-1a63-e053-0824d011072a",
///      "key_id": "2X9R4HXF34", "private_key_file": "AuthKey_2X9R4HXF34.p8"}
///   ],
///   "api_refresh_interval_seconds": 3600,
///   "api_refresh_wait_seconds": 3
/// }
/// ```
///
/// Relative `anchors` and `private_key_file` paths are resolved against the file's directory
/// (``buildApplication(configuration:)`` does).
public struct ServiceConfigurationFile: Sendable, Hashable, Decodable {
    public var database: String?
    public var host: String?
    public var port: Int?
    public var allowedBundleIdentifiers: [String]?
    public var sharedSecrets: [String: String]?
    public var allowsXcodeReceipts: Bool?
    public var anchors: [String]?
    public var maximumBodySize: Int?
    public var requestTimeoutSeconds: Double?
    public var healthTimeoutSeconds: Double?
    public var headerReadTimeoutSeconds: Double?
    public var maximumConnections: Int?
    public var maximumInFlightBodyBytes: Int?
    public var maximumConcurrentValidations: Int?
    public var notificationMaximumAgeSeconds: Double?
    /// Whether App Store JWS certificates are checked online (OCSP, `HTTPOCSPTransport`).
    public var checksRevocation: Bool?
    /// The apps refreshed from the App Store Server API (``AppStoreServerAPISetting``).
    public var appStoreServerAPI: [AppStoreServerAPISetting]?
    /// How old the ledger's API data may be before `/verifyReceipt` refreshes it (60 s to 30 days).
    public var apiRefreshIntervalSeconds: Double?
    /// How long a request waits for a refresh before it answers from the ledger (0.001 s to 3600 s).
    public var apiRefreshWaitSeconds: Double?

    /// The settings' JSON names, grouped by concern.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case database, host, port, anchors
        case allowedBundleIdentifiers = "allowed_bundle_ids", sharedSecrets = "shared_secrets"
        case allowsXcodeReceipts = "allow_xcode_receipts", checksRevocation = "check_revocation"
        case notificationMaximumAgeSeconds = "notification_max_age_seconds"
        case maximumBodySize = "max_body_bytes", maximumInFlightBodyBytes = "max_in_flight_body_bytes"
        case maximumConnections = "max_connections", maximumConcurrentValidations = "max_concurrent_validations"
        case requestTimeoutSeconds = "request_timeout_seconds", healthTimeoutSeconds = "health_timeout_seconds"
        case headerReadTimeoutSeconds = "header_read_timeout_seconds"
        case appStoreServerAPI = "app_store_server_api", apiRefreshIntervalSeconds = "api_refresh_interval_seconds"
        case apiRefreshWaitSeconds = "api_refresh_wait_seconds"
    }

    /// Why a configuration file was refused.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Parses and checks a configuration document.
    public init(json: [UInt8]) throws(Failure) {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(json))
        } catch let failure as Failure {
            throw failure
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw Failure("\(path): \(context.debugDescription)")
        } catch let DecodingError.keyNotFound(key, context) {
            let path = (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
            throw Failure("\(path) is missing")
        } catch {
            throw Failure("not a JSON object of settings")
        }
        if let port, !(0...65535).contains(port) { throw Failure("port \(port) is out of range 0-65535") }
        if let size = self.maximumBodySize, size < 1024 || size > 64 * 1024 * 1024 {
            throw Failure("max_body_bytes must be between 1024 and 67108864")
        }
        try Self.checkTimeout(self.requestTimeoutSeconds, .requestTimeoutSeconds)
        try Self.checkTimeout(self.healthTimeoutSeconds, .healthTimeoutSeconds)
        try Self.checkTimeout(self.headerReadTimeoutSeconds, .headerReadTimeoutSeconds)
        if let count = self.maximumConnections, !(1...1_048_576).contains(count) {
            throw Failure("max_connections must be 1-1048576")
        }
        if let bytes = self.maximumInFlightBodyBytes, !(1024...(1 << 40)).contains(bytes) {
            throw Failure("max_in_flight_body_bytes must be between 1024 and 1099511627776")
        }
        if let count = self.maximumConcurrentValidations, !(1...4096).contains(count) {
            throw Failure("max_concurrent_validations must be 1-4096")
        }
        if let seconds = self.notificationMaximumAgeSeconds, !NotificationConfiguration.isValidMaximumAge(seconds) {
            throw Failure("notification_max_age_seconds must be in [60, 31536000]")
        }
        if let seconds = self.apiRefreshIntervalSeconds, !(seconds >= 60 && seconds <= 2_592_000) {
            throw Failure("api_refresh_interval_seconds must be in [60, 2592000]")
        }
        try Self.checkTimeout(self.apiRefreshWaitSeconds, .apiRefreshWaitSeconds)
        try Self.checkAppStoreServerAPI(self.appStoreServerAPI ?? [])
    }

    /// Each `app_store_server_api` entry names its app, key and file, an environment the API serves, and an app
    /// no other entry names.
    private static func checkAppStoreServerAPI(_ settings: [AppStoreServerAPISetting]) throws(Failure) {
        var seen = Set<String>()
        for (index, setting) in settings.enumerated() {
            let entry = "app_store_server_api[\(index)]"
            if setting.bundleIdentifier.isEmpty || setting.issuerIdentifier.isEmpty || setting.keyIdentifier.isEmpty
                || setting.privateKeyFile.isEmpty
            {
                throw Failure("\(entry): bundle_id, issuer_id, key_id and private_key_file must not be empty")
            }
            if let environment = setting.environment, environment != "production", environment != "sandbox" {
                throw Failure("\(entry): environment must be production or sandbox")
            }
            guard seen.insert(setting.bundleIdentifier).inserted else {
                throw Failure("\(entry): bundle_id \(setting.bundleIdentifier) is configured twice")
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        try Self.refuseUnknownKeys(decoder, known: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.database = try container.decodeIfPresent(String.self, forKey: .database)
        self.host = try container.decodeIfPresent(String.self, forKey: .host)
        self.port = try container.decodeIfPresent(Int.self, forKey: .port)
        self.allowedBundleIdentifiers = try container.decodeIfPresent([String].self, forKey: .allowedBundleIdentifiers)
        self.sharedSecrets = try container.decodeIfPresent([String: String].self, forKey: .sharedSecrets)
        self.allowsXcodeReceipts = try container.decodeIfPresent(Bool.self, forKey: .allowsXcodeReceipts)
        self.anchors = try container.decodeIfPresent([String].self, forKey: .anchors)
        self.maximumBodySize = try container.decodeIfPresent(Int.self, forKey: .maximumBodySize)
        self.requestTimeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .requestTimeoutSeconds)
        self.healthTimeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .healthTimeoutSeconds)
        self.maximumConcurrentValidations = try container.decodeIfPresent(Int.self, forKey: .maximumConcurrentValidations)
        self.headerReadTimeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .headerReadTimeoutSeconds)
        self.maximumConnections = try container.decodeIfPresent(Int.self, forKey: .maximumConnections)
        self.maximumInFlightBodyBytes = try container.decodeIfPresent(Int.self, forKey: .maximumInFlightBodyBytes)
        self.notificationMaximumAgeSeconds = try container.decodeIfPresent(Double.self, forKey: .notificationMaximumAgeSeconds)
        self.checksRevocation = try container.decodeIfPresent(Bool.self, forKey: .checksRevocation)
        self.appStoreServerAPI = try container.decodeIfPresent([AppStoreServerAPISetting].self, forKey: .appStoreServerAPI)
        self.apiRefreshIntervalSeconds = try container.decodeIfPresent(Double.self, forKey: .apiRefreshIntervalSeconds)
        self.apiRefreshWaitSeconds = try container.decodeIfPresent(Double.self, forKey: .apiRefreshWaitSeconds)
    }

    /// Throws for a key of the object being decoded that is not in `known`.
    static func refuseUnknownKeys(_ decoder: any Decoder, known: [String]) throws {
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let names = Set(known)
        for key in try decoder.container(keyedBy: AnyKey.self).allKeys where !names.contains(key.stringValue) {
            let path = (decoder.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
            throw Failure("unknown setting \"\(path)\" (known: \(names.sorted().joined(separator: ", ")))")
        }
    }

    /// A timeout setting must be at least a millisecond (it is applied to the millisecond) and at most an hour.
    private static func checkTimeout(_ seconds: Double?, _ key: CodingKeys) throws(Failure) {
        if let seconds, !(seconds >= 0.001 && seconds <= 3600) { throw Failure("\(key.rawValue) must be in [0.001, 3600]") }
    }

    /// A checked timeout setting, to the millisecond.
    private static func timeout(_ seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }

    /// Applies the file's settings (all but `database`, `host`, `port`, `anchors` and `app_store_server_api`, which
    /// the caller resolves).
    public func apply(to configuration: inout VerifyReceiptConfiguration) {
        if let allowed = self.allowedBundleIdentifiers { configuration.allowedBundleIdentifiers = Set(allowed) }
        if let secrets = self.sharedSecrets { configuration.sharedSecrets = secrets }
        if let xcode = self.allowsXcodeReceipts { configuration.allowsXcodeReceipts = xcode }
        if let size = self.maximumBodySize { configuration.maximumBodySize = size }
        if let seconds = self.requestTimeoutSeconds { configuration.requestTimeout = Self.timeout(seconds) }
        if let seconds = self.healthTimeoutSeconds { configuration.healthTimeout = Self.timeout(seconds) }
        if let count = self.maximumConcurrentValidations { configuration.maximumConcurrentValidations = count }
        if let seconds = self.headerReadTimeoutSeconds { configuration.headerReadTimeout = Self.timeout(seconds) }
        if let count = self.maximumConnections { configuration.maximumConnections = count }
        if let bytes = self.maximumInFlightBodyBytes { configuration.maximumInFlightBodyBytes = bytes }
        if let seconds = self.notificationMaximumAgeSeconds {
            configuration.notifications.maximumAge = .seconds(seconds)
        }
        if let seconds = self.apiRefreshIntervalSeconds {
            configuration.appStoreServerAPI.refreshInterval = Self.timeout(seconds)
        }
        if let seconds = self.apiRefreshWaitSeconds { configuration.appStoreServerAPI.refreshWait = Self.timeout(seconds) }
    }
}
