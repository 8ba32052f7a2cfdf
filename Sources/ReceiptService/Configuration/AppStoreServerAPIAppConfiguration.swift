public import AppStorePKI
public import AppStoreServerAPI
public import Crypto

/// One app the service refreshes from the App Store Server API: its bundle id, its In-App Purchase key and, for a
/// simulator, another base URL — or, given only the key's public half, an app whose data the service's mirror of the
/// API serves from the ledger without refreshing it. The settings file's `app_store_server_api` entries become these.
///
/// ```swift
/// let key = try AppStoreServerAPIKey(issuerID: issuerID, keyID: keyID, privateKeyFile: "/etc/receiptkit/key.p8")
/// var configuration = VerifyReceiptConfiguration()
/// configuration.appStoreServerAPI.apps = [try AppStoreServerAPIAppConfiguration(bundleIdentifier: "com.example.app", key: key)]
/// ```
public struct AppStoreServerAPIAppConfiguration: Sendable {
    /// The app's bundle id: receipts of this app are refreshed (with a client) and its data mirrored.
    public let bundleIdentifier: String
    /// The client configuration for production receipts; `nil` when only Sandbox is refreshed (`environment`), or
    /// nothing (a public key only).
    public let production: AppStoreServerAPIConfiguration?
    /// The client configuration for sandbox receipts; `nil` when only Production is refreshed (`environment`), or
    /// nothing (a public key only).
    public let sandbox: AppStoreServerAPIConfiguration?
    /// The key the mirror checks this app's bearer tokens with, in each environment it serves.
    public let tokenKeys: [AppStoreEnvironment: BearerTokenVerifier.Key]

    /// An app.
    /// - Parameters:
    ///   - bundleIdentifier: The app's bundle id (`bid` in the bearer token).
    ///   - key: The In-App Purchase key.
    ///   - environment: Only receipts of this environment (`.production` or `.sandbox`) are refreshed; `nil` (the
    ///     default) refreshes both, each from Apple's host for its environment.
    ///   - appAppleID: The app's Apple ID, checked on the Production data Apple's answers carry that names it
    ///     (`AppStoreServerAPIConfiguration.appAppleID`); `nil` (the default) checks none.
    ///   - baseURL: Another host than Apple's (a local simulator): `https`, or plain `http` to a loopback address.
    /// - Throws: `AppStoreServerAPIError` (`invalid_configuration`) for an empty bundle id, another environment or a
    ///   base URL the client refuses.
    public init(
        bundleIdentifier: String,
        key: AppStoreServerAPIKey,
        environment: AppStoreEnvironment? = nil,
        appAppleID: Int64? = nil,
        baseURL: String? = nil
    ) throws(AppStoreServerAPIError) {
        func client(_ wanted: AppStoreEnvironment) throws(AppStoreServerAPIError) -> AppStoreServerAPIConfiguration {
            try AppStoreServerAPIConfiguration(
                key: key,
                bundleIdentifier: bundleIdentifier,
                environment: wanted,
                appAppleID: appAppleID,
                baseURL: baseURL
            )
        }
        self.bundleIdentifier = bundleIdentifier
        if let environment {
            // The client refuses any environment but Production and Sandbox.
            let only = try client(environment)
            self.production = environment == .production ? only : nil
            self.sandbox = environment == .sandbox ? only : nil
        } else {
            self.production = try client(.production)
            self.sandbox = try client(.sandbox)
        }
        var tokenKeys: [AppStoreEnvironment: BearerTokenVerifier.Key] = [:]
        for client in [self.production, self.sandbox].compactMap({ $0 }) {
            tokenKeys[client.environment] = BearerTokenVerifier.Key(
                keyID: key.keyID, issuerID: key.issuerID, publicKey: key.publicKey, bundleIdentifiers: [bundleIdentifier])
        }
        self.tokenKeys = tokenKeys
    }

    /// An app the mirror serves from the ledger and the service never refreshes: only the key's public half is
    /// known (`public_key_file`), so tokens signed with the key are checked and no request to Apple can be made.
    /// - Parameters:
    ///   - bundleIdentifier: The app's bundle id (`bid` in the bearer token).
    ///   - keyID: The key's id (`kid`).
    ///   - issuerID: The key's issuer (`iss`).
    ///   - publicKey: The public half of the In-App Purchase key.
    ///   - environment: Only this environment's data (`.production` or `.sandbox`) is served; `nil` (the default)
    ///     serves both.
    /// - Throws: `AppStoreServerAPIError` (`invalid_configuration`) for an empty bundle id, key id or issuer, or
    ///   another environment.
    public init(
        bundleIdentifier: String,
        keyID: String,
        issuerID: String,
        publicKey: P256.Signing.PublicKey,
        environment: AppStoreEnvironment? = nil
    ) throws(AppStoreServerAPIError) {
        guard !bundleIdentifier.isEmpty, !keyID.isEmpty, !issuerID.isEmpty else {
            throw AppStoreServerAPIError(.invalidConfiguration, "bundle id, key id and issuer must not be empty")
        }
        let environments: [AppStoreEnvironment]
        switch environment {
        case nil: environments = [.production, .sandbox]
        case .production?, .sandbox?: environments = [environment].compactMap { $0 }
        default: throw AppStoreServerAPIError(.invalidConfiguration, "the environment must be production or sandbox")
        }
        self.bundleIdentifier = bundleIdentifier
        self.production = nil
        self.sandbox = nil
        let key = BearerTokenVerifier.Key(
            keyID: keyID, issuerID: issuerID, publicKey: publicKey, bundleIdentifiers: [bundleIdentifier])
        self.tokenKeys = Dictionary(uniqueKeysWithValues: environments.map { ($0, key) })
    }

    /// The client configuration for receipts of `environment`; `nil` for one this app is not refreshed in.
    func client(for environment: AppStoreEnvironment) -> AppStoreServerAPIConfiguration? {
        switch environment {
        case .production: return self.production
        case .sandbox: return self.sandbox
        default: return nil
        }
    }
}
