/// One entry of the settings file's `app_store_server_api` list: an app the service refreshes from the App Store
/// Server API. Unknown keys are an error, as everywhere in the file. The key file is read when the service starts
/// (``buildApplication(configuration:)``), relative to the settings file's directory; its contents are never logged.
///
/// ```json
/// {"bundle_id": "com.example.app", "issuer_id": "57246542-96fe-1a63-e053-0824d011072a", "key_id": "2X9R4HXF34",
///  "private_key_file": "AuthKey_2X9R4HXF34.p8"}
/// ```
public struct AppStoreServerAPISetting: Sendable, Hashable, Decodable {
    /// `bundle_id`: the app.
    public var bundleIdentifier: String
    /// `issuer_id`: the issuer id of the In-App Purchase key.
    public var issuerIdentifier: String
    /// `key_id`: the key id.
    public var keyIdentifier: String
    /// `private_key_file`: the `.p8` file App Store Connect handed out.
    public var privateKeyFile: String
    /// `base_url`: another host than Apple's (a local simulator: plain `http` only to a loopback address).
    public var baseURL: String?
    /// `environment`: `production` or `sandbox` to refresh receipts of that environment only; both by default.
    public var environment: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case bundleIdentifier = "bundle_id", issuerIdentifier = "issuer_id", keyIdentifier = "key_id"
        case privateKeyFile = "private_key_file", baseURL = "base_url", environment
    }

    public init(from decoder: any Decoder) throws {
        try ServiceConfigurationFile.refuseUnknownKeys(decoder, known: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.bundleIdentifier = try container.decode(String.self, forKey: .bundleIdentifier)
        self.issuerIdentifier = try container.decode(String.self, forKey: .issuerIdentifier)
        self.keyIdentifier = try container.decode(String.self, forKey: .keyIdentifier)
        self.privateKeyFile = try container.decode(String.self, forKey: .privateKeyFile)
        self.baseURL = try container.decodeIfPresent(String.self, forKey: .baseURL)
        self.environment = try container.decodeIfPresent(String.self, forKey: .environment)
    }
}
