import AppStoreJWS
import AppStoreServerAPI

/// One entry of the `app_store_server_api` setting: an app the service refreshes from the App Store Server API
/// (`private_key_file`), or whose data only the mirror of that API serves from the ledger (`public_key_file`, the
/// key's public half: tokens are checked, Apple is never asked). Exactly one of the two. Unknown keys are an error, as
/// everywhere in the settings. The key file is read when the service starts (``buildApplication(configuration:)``),
/// relative to the settings file's directory when the file names it; its contents are never logged.
///
/// ```json
/// {"bundle_id": "com.example.app", "issuer_id": "57246542-96fe-1a63-e053-0824d011072a", "key_id": "2X9R4HXF34",
///  "private_key_file": "AuthKey_2X9R4HXF34.p8"}
/// ```
public struct AppStoreServerAPISetting: Sendable, Hashable {
    /// `bundle_id`: the app.
    public var bundleIdentifier: String
    /// `issuer_id`: the issuer id of the In-App Purchase key.
    public var issuerIdentifier: String
    /// `key_id`: the key id.
    public var keyIdentifier: String
    /// `private_key_file`: the `.p8` file App Store Connect handed out; `nil` when `public_key_file` is given.
    public var privateKeyFile: String?
    /// `public_key_file`: the key's public half (PEM `PUBLIC KEY`, P-256), for an app the mirror serves and the
    /// service does not refresh; `nil` when `private_key_file` is given.
    public var publicKeyFile: String?
    /// `base_url`: another host than Apple's (a local simulator: plain `http` only to a loopback address).
    public var baseURL: String?
    /// `environment`: `production` or `sandbox` to refresh and mirror that environment only; both by default.
    public var environment: String?
    /// `app_apple_id`: the app's Apple ID (a positive integer), checked on the Production data Apple's answers carry
    /// that names it (`AppStoreServerAPIConfiguration.appAppleID`); unchecked when absent. Refused on a
    /// `public_key_file` entry.
    public var appAppleID: Int64?

    /// An entry; exactly one of `privateKeyFile` and `publicKeyFile` must be given (the settings check refuses
    /// others).
    public init(
        bundleIdentifier: String, issuerIdentifier: String, keyIdentifier: String, privateKeyFile: String?,
        publicKeyFile: String? = nil, baseURL: String? = nil, environment: String? = nil, appAppleID: Int64? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.issuerIdentifier = issuerIdentifier
        self.keyIdentifier = keyIdentifier
        self.privateKeyFile = privateKeyFile
        self.publicKeyFile = publicKeyFile
        self.baseURL = baseURL
        self.environment = environment
        self.appAppleID = appAppleID
    }

    /// The entry's keys.
    static let keys = [
        "bundle_id", "issuer_id", "key_id", "private_key_file", "public_key_file", "base_url", "environment",
        "app_apple_id",
    ]

    /// The setting's row: a JSON list of entries, each key file resolved against the source's directory.
    static func setting(
        _ name: String, _ path: any (WritableKeyPath<ServiceSettings, [AppStoreServerAPISetting]> & Sendable),
        _ summary: String
    ) -> ServiceSetting {
        ServiceSetting(
            name: name, summary: summary,
            rule: "a list of {bundle_id, issuer_id, key_id, private_key_file or public_key_file, base_url?, environment?, app_apple_id?}",
            isSecret: false,
            read: { input, origin, settings throws(SettingProblem) in
                guard case .array(let items) = try input.structured() else { throw SettingProblem("must be a list") }
                var entries: [AppStoreServerAPISetting] = []
                for (index, item) in items.enumerated() {
                    entries.append(try Self(item, at: "[\(index)]", origin: origin))
                }
                settings[keyPath: path] = entries
            },
            check: { settings in Self.problem(settings[keyPath: path]) },
            show: { settings in "[" + settings[keyPath: path].map(\.bundleIdentifier).joined(separator: ", ") + "]" }
        )
    }

    /// An entry from its JSON object.
    private init(_ value: JSONValue, at entry: String, origin: SettingOrigin) throws(SettingProblem) {
        guard case .object(let members) = value else { throw SettingProblem("\(entry) must be an object") }
        if let unknown = members.keys.sorted().first(where: { !Self.keys.contains($0) }) {
            throw SettingProblem(
                "\(entry): unknown setting \"\(unknown)\" (known: \(Self.keys.sorted().joined(separator: ", ")))")
        }
        func string(_ key: String) throws(SettingProblem) -> String? {
            switch members[key] {
            case nil: return nil
            case .string(let value)?: return value
            default: throw SettingProblem("\(entry).\(key) must be a string")
            }
        }
        func appAppleID() throws(SettingProblem) -> Int64? {
            switch members["app_apple_id"] {
            case nil: return nil
            case .number(let number)?:
                guard let value = number.int64, value > 0 else { break }
                return value
            default: break
            }
            throw SettingProblem("\(entry).app_apple_id must be a positive integer")
        }
        func required(_ key: String) throws(SettingProblem) -> String {
            guard let value = try string(key) else { throw SettingProblem("\(entry).\(key) is missing") }
            return value
        }
        self.init(
            bundleIdentifier: try required("bundle_id"),
            issuerIdentifier: try required("issuer_id"),
            keyIdentifier: try required("key_id"),
            privateKeyFile: try string("private_key_file").map(origin.resolve),
            publicKeyFile: try string("public_key_file").map(origin.resolve),
            baseURL: try string("base_url"),
            environment: try string("environment"),
            appAppleID: try appAppleID()
        )
    }

    /// What is wrong with a list of entries: an empty field, an environment the API does not serve, a base URL the
    /// client's rules refuse, an app named twice.
    static func problem(_ entries: [AppStoreServerAPISetting]) -> SettingProblem? {
        var seen = Set<String>()
        for (index, entry) in entries.enumerated() {
            guard (entry.privateKeyFile == nil) != (entry.publicKeyFile == nil) else {
                return SettingProblem("[\(index)]: give exactly one of private_key_file and public_key_file")
            }
            if entry.bundleIdentifier.isEmpty || entry.issuerIdentifier.isEmpty || entry.keyIdentifier.isEmpty
                || (entry.privateKeyFile ?? entry.publicKeyFile ?? "").isEmpty
            {
                return SettingProblem("[\(index)]: bundle_id, issuer_id, key_id and the key file must not be empty")
            }
            if entry.publicKeyFile != nil, entry.appAppleID != nil {
                return SettingProblem("[\(index)]: app_apple_id needs private_key_file (only the refresh's clients check it)")
            }
            if entry.publicKeyFile != nil, entry.baseURL != nil {
                return SettingProblem("[\(index)]: base_url needs private_key_file (a public key is never sent to Apple)")
            }
            if let environment = entry.environment, environment != "production", environment != "sandbox" {
                return SettingProblem("[\(index)]: environment must be production or sandbox")
            }
            if let url = entry.baseURL {
                do {
                    _ = try AppStoreServerAPIConfiguration.validatedBaseURL(url)
                } catch {
                    return SettingProblem("[\(index)]: \(error.reason)")
                }
            }
            guard seen.insert(entry.bundleIdentifier).inserted else {
                return SettingProblem("[\(index)]: bundle_id \(entry.bundleIdentifier) is configured twice")
            }
        }
        return nil
    }
}
