public import AppStorePKI
public import AppStoreJWS
import class Foundation.ProcessInfo
public import ReceiptKit

/// What a verifyReceipt service accepts and how much work it takes on.
///
/// ```swift
/// var configuration = VerifyReceiptConfiguration()
/// configuration.allowedBundleIdentifiers = ["com.example.app"]
/// configuration.sharedSecrets = ["com.example.app": "0123abcd…"]
/// ```
public struct VerifyReceiptConfiguration: Sendable {
    /// The trusted anchors; Apple's pinned root by default.
    public var anchors: AppStoreTrustAnchors = .apple
    /// Whether Xcode StoreKit-testing receipts (on the sandbox endpoint only) and locally signed JWS (environment
    /// `Xcode` or `LocalTesting`) are accepted. Never in production.
    public var allowsXcodeReceipts = false
    /// Bundle ids the service answers for; `nil` answers for any app. Others get 21010.
    public var allowedBundleIdentifiers: Set<String>?
    /// Shared secrets by bundle id; a request for such an app must send the same `password` (else 21004).
    public var sharedSecrets: [String: String] = [:]
    /// Request bodies above this many bytes get HTTP 413 (default 3 MiB).
    public var maximumBodySize = 3 * 1024 * 1024
    /// The longest a request may take, queueing included, before it is answered 21009 (retryable). Its body
    /// must arrive within it too, else HTTP 408 and the connection is closed.
    public var requestTimeout: Duration = .seconds(10)
    /// How long a request's line and headers may take to arrive, from the connection's opening or the request's
    /// first byte (default 10 s). A client that drips them is disconnected, and the close counted in `/metrics`
    /// (`receiptkit_connections_closed_total{reason="header_timeout"}`).
    public var headerReadTimeout: Duration = .seconds(10)
    /// How many connections are open at once (default 1,024); past it, a new connection is closed as soon as it
    /// is accepted (`reason="connection_limit"`). Keep it under the process's file-descriptor limit.
    public var maximumConnections = 1024
    /// How many of those may come from one peer address (default 256; an IPv6 peer is its /64): past it, that address's new connection is
    /// closed as soon as it is accepted (`reason="address_limit"`), so one host cannot take every place. Behind a
    /// reverse proxy every connection is the proxy's: set it to ``maximumConnections`` there.
    public var maximumConnectionsPerAddress = 256
    /// How long a keep-alive connection may sit idle between requests before it is closed (default 10 s, the
    /// header-read timeout's default). And at the cap, the connection idle the longest is closed to admit a new one
    /// (`reason="idle_reclaimed"`): idle sockets never lock clients out.
    public var idleTimeout: Duration = .seconds(10)
    /// How many bytes of request bodies may be held at once, across all connections (default 64 MiB). A body takes
    /// budget as its bytes arrive, never by the `Content-Length` it announces; a chunk that does not fit is answered
    /// HTTP 503 with `Retry-After` and the rest is not read (and when the budget is already full, before any of it).
    public var maximumInFlightBodyBytes = 64 * 1024 * 1024
    /// How many of those bytes the bodies from one peer address (an IPv6 peer: its /64) may hold (default 16 MiB; never less than
    /// ``maximumBodySize``), so filling the budget takes many addresses. Behind a reverse proxy every body is the
    /// proxy's: set it to ``maximumInFlightBodyBytes`` there.
    public var maximumInFlightBodyBytesPerAddress = 16 * 1024 * 1024
    /// The share of ``maximumInFlightBodyBytes``, in percent (default 25), that bodies still arriving may not take:
    /// kept for bodies with a declared `Content-Length` that arrive whole: the chunk that completes one, or one that
    /// finishes within 250 ms of its first borrowed byte (else HTTP 408). Partial uploads fill the rest; ordinary
    /// requests still find room. Never so large that the rest cannot hold one body of ``maximumBodySize``.
    public var bodyReservePercent = 25
    /// The longest a body may pause between two of its chunks (default 3 s, well before ``requestTimeout``); past
    /// it the answer is HTTP 408 and the connection is closed
    /// (`receiptkit_connections_closed_total{reason="body_stalled"}`).
    public var bodyStallTimeout: Duration = .seconds(3)
    /// How long a response may wait for a client that does not read it — the connection's send buffers full —
    /// before the connection is closed (default 10 s; `receiptkit_connections_closed_total{reason="write_stalled"}`).
    public var responseWriteTimeout: Duration = .seconds(10)
    /// How long `GET /health` waits for the ledger's database to answer before it reports 503 (default 3 s): a
    /// database that slow is, for a load balancer, one that does not answer.
    public var healthTimeout: Duration = .seconds(3)
    /// How many validations run at once; more requests wait their turn (default: twice the core count).
    public var maximumConcurrentValidations = 2 * max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Resource limits for decoding receipts.
    public var decodingConfiguration: ReceiptDecodingConfiguration = .default
    /// How server notifications are accepted (`POST /notifications/v2`).
    public var notifications = NotificationConfiguration()
    /// Whether `POST /jws/verify` answers (default `false`: 404, like any unknown path). It is an operator's tool
    /// that verifies any app's signed data for whoever asks — a signature check each, and with
    /// ``jwsRevocationCheck`` a question to Apple's OCSP responder for each path not yet known — so turn it on only
    /// where your network alone reaches it.
    public var servesJWSVerify = false
    /// Online revocation checking (OCSP) of App Store JWS certificates — notifications and `POST /jws/verify` —
    /// or `nil` (the default) for none. A responder that cannot be reached makes a notification answer 503, so
    /// Apple sends it again later; see `HTTPOCSPTransport` (AppStoreJWSOCSP).
    public var jwsRevocationCheck: JWSRevocationCheck?
    /// The App Store Server API refresh of `/verifyReceipt` (``AppStoreServerAPIBridgeConfiguration``): none by
    /// default, and an app without an entry is answered from the ledger alone.
    public var appStoreServerAPI = AppStoreServerAPIBridgeConfiguration()

    /// The operator's tokens (`admin_tokens`), several at once for rotation: `GET /v1/entitlements` needs one
    /// (`Authorization: Bearer …`), the timeline page `GET /ui/subscriptions…` one as an HTTP Basic password;
    /// compared in constant time. None (the default): neither is served.
    public var adminTokens: [String] = []
    /// The entitlement names each product grants, by bundle id and product id (`entitlements`): a product without
    /// names grants one named as its product id.
    public var entitlements: [String: [String: [String]]] = [:]

    /// Creates the default configuration: Apple's root, any app, no shared secrets.
    public init() {}
}
