public import AppStoreJWS
public import AppStorePKI

/// What an ``AppStoreServerAPIClient`` needs: the key, the app, the environment (or a base URL of your own, for a
/// local simulator), how signed data is verified, and the client's limits.
///
/// ```swift
/// let configuration = try AppStoreServerAPIConfiguration(key: key, bundleIdentifier: "com.example.app", environment: .sandbox)
/// ```
public struct AppStoreServerAPIConfiguration: Sendable {
    /// Apple's production host (since Apple's change of 2026-05-05; Apple's library 6.0.0 uses it).
    public static let productionBaseURL = "https://api.storekit.apple.com"
    /// Apple's sandbox host (since 2026-05-05).
    public static let sandboxBaseURL = "https://api.storekit-sandbox.apple.com"
    /// Apple's production host before 2026-05-05, which Apple still answers on: give it as the base URL to keep it.
    public static let previousProductionBaseURL = "https://api.storekit.itunes.apple.com"
    /// Apple's sandbox host before 2026-05-05.
    public static let previousSandboxBaseURL = "https://api.storekit-sandbox.itunes.apple.com"

    /// The In-App Purchase key that signs the bearer tokens.
    public var key: AppStoreServerAPIKey
    /// The app (`bid` in the token; the bundle id signed data must name).
    public let bundleIdentifier: String
    /// `Production` or `Sandbox`: the environment signed data must come from.
    public let environment: AppStoreEnvironment
    /// Where requests go: Apple's host for ``environment`` unless another was given.
    public let baseURL: String
    /// The app's Apple ID (App Store Connect's "Apple ID" of the app), or `nil`. When given, Production signed data
    /// that names the app (notifications, app transactions) must carry it (`app_apple_id_mismatch` otherwise, as
    /// Apple's `SignedDataVerifier`, which requires it in Production), and so must an answer's unsigned `appAppleId`
    /// in Production (``AppStoreServerAPIError/Code/malformedResponse`` otherwise). Sandbox data names no app Apple
    /// ID and is not checked.
    public var appAppleID: Int64?
    /// What signed values in answers must satisfy before they are returned. By default: a chain to Apple Root CA - G3,
    /// Apple's App Store markers, ``bundleIdentifier``, ``appAppleID`` and ``environment``. Add your own anchors for data
    /// minted in tests. The client always verifies with `bundleIdentifier` set to ``bundleIdentifier``, `appAppleID` to
    /// ``appAppleID``, `environment` to ``environment`` and `allowsLocalEnvironments` off, whatever this policy says
    /// of them.
    public var verificationPolicy: JWSVerificationPolicy
    /// When to retry. Default ``RetryPolicy/default``.
    public var retryPolicy: RetryPolicy
    /// How long one attempt may take, connection, head and body included (cut to what is left of
    /// ``RetryPolicy/maximumTotalTime``). Must be positive. Default 30 seconds.
    public var timeout: Duration
    /// The largest answer body read. Must be positive. Default 4 MiB.
    public var maximumResponseSize: Int
    /// The most requests in flight at once for one key (issuer id and key id), across every client of the process.
    /// The first client made for a key fixes the bound for the life of the process: a later client of the same key
    /// with another value shares the first one's. Must be positive. Default 8.
    public var maximumConcurrentRequests: Int
    /// The most pages a call that follows `revision` or `paginationToken` reads before it gives up with
    /// ``AppStoreServerAPIError/Code/malformedResponse``. Must be positive. Default 1000.
    public var maximumPages: Int
    /// The most items (transactions, notifications) a paged call gathers, over all its pages, before it gives up
    /// with ``AppStoreServerAPIError/Code/malformedResponse``: a misbehaving upstream cannot fill memory with pages of
    /// hundreds of items. Must be positive. Default 20,000 (what ``maximumPages`` pages of Apple's 20 hold).
    public var maximumPagedItems: Int
    /// The longest a paged call may keep reading pages, from its first request, before it gives up with
    /// ``AppStoreServerAPIError/Code/malformedResponse``. Must be positive. Default 120 seconds.
    public var maximumPagingTime: Duration
    /// How bearer tokens are made: ``BearerTokenPolicy/perRequest`` (the default: a new token for each request, valid
    /// 5 minutes, as Apple asks) or ``BearerTokenPolicy/reused(lifetime:)``.
    public var tokenPolicy: BearerTokenPolicy

    /// `url` as a configuration would keep it (without a trailing `/`), if the base URL rules accept it: `https`, or
    /// plain `http` only to a literal loopback address; no query, fragment or credentials.
    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidConfiguration`` naming the rule.
    public static func validatedBaseURL(_ url: String) throws(AppStoreServerAPIError) -> String {
        try BaseURL.validated(url)
    }

    /// A configuration.
    /// - Parameters:
    ///   - key: The In-App Purchase key.
    ///   - bundleIdentifier: The app's bundle id.
    ///   - environment: `.production` or `.sandbox`.
    ///   - appAppleID: The app's Apple ID, checked on Production data that names it (``appAppleID``); `nil` (the
    ///     default) checks none. Give it in Production, as Apple's library requires.
    ///   - baseURL: Another host than Apple's for `environment` (a local simulator): `https`, or plain `http` only to
    ///     a literal loopback address (`127.0.0.1` or `[::1]`; not `localhost`, a name the resolver may send
    ///     elsewhere).
    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidConfiguration`` for an empty
    ///   bundle id, an app Apple ID that is not positive, another environment, or a base URL these rules refuse.
    public init(
        key: AppStoreServerAPIKey,
        bundleIdentifier: String,
        environment: AppStoreEnvironment,
        appAppleID: Int64? = nil,
        baseURL: String? = nil
    ) throws(AppStoreServerAPIError) {
        guard !bundleIdentifier.isEmpty else {
            throw AppStoreServerAPIError(.invalidConfiguration, "the bundle id must not be empty")
        }
        if let appAppleID, appAppleID <= 0 {
            throw AppStoreServerAPIError(.invalidConfiguration, "the app Apple ID must be positive, not \(appAppleID)")
        }
        let defaultURL: String
        switch environment {
        case .production: defaultURL = Self.productionBaseURL
        case .sandbox: defaultURL = Self.sandboxBaseURL
        default:
            throw AppStoreServerAPIError(
                .invalidConfiguration,
                "the App Store Server API serves Production and Sandbox, not \(environment)"
            )
        }
        self.key = key
        self.bundleIdentifier = bundleIdentifier
        self.environment = environment
        self.appAppleID = appAppleID
        self.baseURL =
            try baseURL.map { url throws(AppStoreServerAPIError) in try BaseURL.validated(url) } ?? defaultURL
        self.verificationPolicy = JWSVerificationPolicy(
            bundleIdentifier: bundleIdentifier, appAppleID: appAppleID, environment: environment)
        self.retryPolicy = .default
        self.timeout = .seconds(30)
        self.maximumResponseSize = 4 * 1024 * 1024
        self.maximumConcurrentRequests = 8
        self.maximumPages = 1000
        self.maximumPagedItems = 20_000
        self.maximumPagingTime = .seconds(120)
        self.tokenPolicy = .perRequest
    }
}
