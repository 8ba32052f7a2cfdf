public import AppStorePKI
public import AppStoreServerAPI

/// One app the service refreshes from the App Store Server API: its bundle id, its In-App Purchase key and, for a
/// simulator, another base URL. The settings file's `app_store_server_api` entries become these.
///
/// ```swift
/// let key = try AppStoreServerAPIKey(issuerID: issuerID, keyID: keyID, privateKeyFile: "/etc/receiptkit/key.p8")
/// var configuration = VerifyReceiptConfiguration()
/// configuration.appStoreServerAPI.apps = [try AppStoreServerAPIAppConfiguration(bundleIdentifier: "com.example.app", key: key)]
/// ```
public struct AppStoreServerAPIAppConfiguration: Sendable {
    /// The app's bundle id: receipts of this app are refreshed.
    public let bundleIdentifier: String
    /// The client configuration for production receipts; `nil` when only Sandbox is refreshed (`environment`).
    public let production: AppStoreServerAPIConfiguration?
    /// The client configuration for sandbox receipts; `nil` when only Production is refreshed (`environment`).
    public let sandbox: AppStoreServerAPIConfiguration?

    /// An app.
    /// - Parameters:
    ///   - bundleIdentifier: The app's bundle id (`bid` in the bearer token).
    ///   - key: The In-App Purchase key.
    ///   - environment: Only receipts of this environment (`.production` or `.sandbox`) are refreshed; `nil` (the
    ///     default) refreshes both, each from Apple's host for its environment.
    ///   - baseURL: Another host than Apple's (a local simulator): `https`, or plain `http` to a loopback address.
    /// - Throws: `AppStoreServerAPIError` (`invalid_configuration`) for an empty bundle id, another environment or a
    ///   base URL the client refuses.
    public init(
        bundleIdentifier: String,
        key: AppStoreServerAPIKey,
        environment: AppStoreEnvironment? = nil,
        baseURL: String? = nil
    ) throws(AppStoreServerAPIError) {
        func client(_ wanted: AppStoreEnvironment) throws(AppStoreServerAPIError) -> AppStoreServerAPIConfiguration {
            try AppStoreServerAPIConfiguration(
                key: key,
                bundleIdentifier: bundleIdentifier,
                environment: wanted,
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
