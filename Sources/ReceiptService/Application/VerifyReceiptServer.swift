import AppStoreJWS
public import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
import ReceiptLedger
public import ServiceLifecycle

/// The HTTP face of a ``ReceiptVerifier``: Apple's two verifyReceipt endpoints, a health check and metrics.
///
/// | route | answer |
/// |---|---|
/// | `POST /verifyReceipt` | verifyReceipt as Apple's production host |
/// | `POST /sandbox/verifyReceipt` | as its sandbox host |
/// | `POST /notifications/v2` | App Store Server Notifications V2: verified, recorded once per `notificationUUID` |
/// | `POST /jws/verify` | any App Store JWS (`?kind=` optional): the verdict and the decoded payload |
/// | `GET /health` | 200 when the ledger answers within the health timeout, 503 when it fails or is late |
/// | `GET /metrics` | Prometheus text |
///
/// Every verdict is HTTP 200 with a `status`, whatever the request's Content-Type. A body over the configured
/// size is refused with HTTP 413 before it is read; one that does not arrive within the request timeout, 408; one
/// the in-flight body budget cannot cover, 503 with `Retry-After` (none of it read). Connections are capped and
/// must send their headers within the header-read timeout (see ``VerifyReceiptConfiguration``).
///
/// ```swift
/// let server = VerifyReceiptServer(verifier: verifier, host: "127.0.0.1", port: 8080, logger: logger)
/// try await server.application().runService()
/// ```
public struct VerifyReceiptServer: Sendable {
    /// Answers requests.
    public let verifier: ReceiptVerifier
    /// The address to bind (loopback by default).
    public var host: String
    /// The port to bind; 0 picks a free one (see `onServerRunning`).
    public var port: Int
    /// Where request logs go.
    public var logger: Logger
    /// The bytes of bodies held at once, shared by every request.
    let bodyBudget: BodyBudget
    /// The open connections, against their cap.
    let connections: OpenConnections

    /// Creates a server.
    public init(verifier: ReceiptVerifier, host: String = "127.0.0.1", port: Int = 8080, logger: Logger) {
        self.verifier = verifier
        self.host = host
        self.port = port
        self.logger = logger
        self.bodyBudget = BodyBudget(limit: verifier.configuration.maximumInFlightBodyBytes)
        self.connections = OpenConnections(
            limit: verifier.configuration.maximumConnections, metrics: verifier.metrics)
    }

    /// How many seconds a client refused for the body budget is told to wait (`Retry-After`).
    static let retryAfterSeconds = 1

    /// The routes.
    public func router() -> Router<VerifyReceiptRequestContext> {
        let router = Router(context: VerifyReceiptRequestContext.self)
        let verifier = self.verifier
        let budget = self.bodyBudget
        router.post("verifyReceipt") { request, context in
            try await Self.verify(request, context: context, endpoint: .production, verifier: verifier, budget: budget)
        }
        router.post("sandbox/verifyReceipt") { request, context in
            try await Self.verify(request, context: context, endpoint: .sandbox, verifier: verifier, budget: budget)
        }
        router.post("notifications/v2") { request, context in
            try await Self.signedData(
                request, context: context, verifier: verifier, budget: budget, route: "notification"
            ) { body in
                await verifier.answerNotification(body: body)
            }
        }
        router.post("jws/verify") { request, context in
            let name = request.uri.queryParameters.get("kind")
            let kind = name.flatMap { AppStoreSignedDataKind($0) }
            if name != nil, kind == nil {
                let answer = ReceiptVerifier.answer(
                    400, "malformed", ["unknown_payload_kind"],
                    reason: "kind is transaction, renewal-info, app-transaction or notification")
                return Response(
                    status: .badRequest, headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
            }
            return try await Self.signedData(
                request, context: context, verifier: verifier, budget: budget, route: "jws"
            ) { body in
                await verifier.answerJWS(body: body, kind: kind)
            }
        }
        router.get("health") { _, _ in
            await Self.health(verifier)
        }
        router.get("metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: verifier.metrics.exposition()))
            )
        }
        return router
    }

    /// The Hummingbird application: the routes on `host:port`, with `services` (a `PostgresLedger`, say) run
    /// beside the server and shut down with it on SIGTERM/SIGINT.
    public func application(
        services: [any Service] = [],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> Application<RouterResponder<VerifyReceiptRequestContext>> {
        let configuration = self.verifier.configuration
        let connections = self.connections
        let metrics = self.verifier.metrics
        let headerReadTimeout = TimeAmount(configuration.headerReadTimeout)
        let server = HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                http1: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: .seconds(75))),
                connections: connections,
                headerReadTimeout: headerReadTimeout,
                metrics: metrics)
        }
        return Application(
            router: self.router(),
            server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(self.host, port: self.port),
                serverName: "receiptkit"
            ),
            services: services,
            onServerRunning: onServerRunning,
            logger: self.logger
        )
    }

    static func verify(
        _ request: Request,
        context: VerifyReceiptRequestContext,
        endpoint: VerifyReceiptEndpoint,
        verifier: ReceiptVerifier,
        budget: BodyBudget
    ) async throws -> Response {
        let started = ContinuousClock.now
        let timeout = verifier.configuration.requestTimeout
        return try await Self.withBody(request, context: context, verifier: verifier, budget: budget) { bytes in
            let answer =
                try await withDeadline(timeout - (ContinuousClock.now - started)) {
                    await verifier.answer(body: bytes, endpoint: endpoint)
                } ?? .failure(.internalError, reasons: ["timeout"], retryable: true)

            let elapsed = ContinuousClock.now - started
            context.logger.info(
                "verifyReceipt",
                metadata: [
                    "endpoint": .string(endpoint.rawValue),
                    "status": .stringConvertible(answer.status.code),
                    "reasons": .array(answer.reasons.map { .string($0) }),
                    "body_bytes": .stringConvertible(bytes.count),
                    "duration_ms": .string(Self.milliseconds(elapsed)),
                ]
            )
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
            )
        }
    }

    /// Runs `handle` on the request's body, read within the request timeout, the size limit and the in-flight
    /// budget: 413 from `Content-Length` or while reading (the rest never buffered), 503 with `Retry-After` when
    /// the budget cannot cover the body (before any of it is read), 408 when it does not arrive in time. The
    /// reservation is held until `handle` has answered.
    static func withBody(
        _ request: Request,
        context: VerifyReceiptRequestContext,
        verifier: ReceiptVerifier,
        budget: BodyBudget,
        busyBody: [UInt8] = [],
        _ handle: ([UInt8]) async throws -> Response
    ) async throws -> Response {
        let limit = verifier.configuration.maximumBodySize
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared, declared > limit {
            return Self.refuse(.contentTooLarge, context: context, verifier: verifier)
        }
        let reservation = declared ?? limit
        guard budget.reserve(reservation) else {
            return Self.refuse(.serviceUnavailable, context: context, verifier: verifier, body: busyBody)
        }
        defer { budget.release(reservation) }
        let body: ByteBuffer?
        do {
            let stream = request.body
            body = try await withDeadline(verifier.configuration.requestTimeout) { try await stream.collect(upTo: limit) }
        } catch is NIOTooManyBytesError {
            return Self.refuse(.contentTooLarge, context: context, verifier: verifier)
        }
        guard let body else {
            verifier.metrics.countClosedConnection(reason: "body_timeout")
            return Self.refuse(.requestTimeout, context: context, verifier: verifier)
        }
        return try await handle(Array(body.readableBytesView))
    }

    /// `POST /notifications/v2` and `POST /jws/verify`: the body through `answer`, within the request timeout.
    static func signedData(
        _ request: Request,
        context: VerifyReceiptRequestContext,
        verifier: ReceiptVerifier,
        budget: BodyBudget,
        route: String,
        answer: @escaping @Sendable ([UInt8]) async -> SignedDataAnswer
    ) async throws -> Response {
        let started = ContinuousClock.now
        let busy = ReceiptVerifier.answer(503, "unavailable", ["body_budget_exhausted"]).body
        return try await Self.withBody(
            request, context: context, verifier: verifier, budget: budget, busyBody: busy
        ) { bytes in
            let timeout = verifier.configuration.requestTimeout - (ContinuousClock.now - started)
            let result =
                try await withDeadline(timeout) { await answer(bytes) }
                ?? ReceiptVerifier.answer(503, "unavailable", ["timeout"])
            context.logger.info(
                "\(route)",
                metadata: [
                    "http_status": .stringConvertible(result.httpStatus),
                    "outcome": .string(result.outcome),
                    "reasons": .array(result.reasons.map { .string($0) }),
                    "body_bytes": .stringConvertible(bytes.count),
                    "duration_ms": .string(Self.milliseconds(ContinuousClock.now - started)),
                ]
            )
            return Response(
                status: HTTPResponse.Status(code: result.httpStatus),
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: result.body))
            )
        }
    }

    /// A refusal before any verdict: the status (503 with `Retry-After`), `body` (empty unless given, then JSON),
    /// and the connection closed so the rest of the body is never read.
    private static func refuse(
        _ status: HTTPResponse.Status,
        context: VerifyReceiptRequestContext,
        verifier: ReceiptVerifier,
        body: [UInt8] = []
    ) -> Response {
        verifier.metrics.countHTTPRejection(status.code)
        context.logger.notice("verifyReceipt refused", metadata: ["http_status": .stringConvertible(status.code)])
        context.channel.close(mode: .input, promise: nil)
        var headers: HTTPFields = [.connection: "close"]
        if status == .serviceUnavailable { headers[.retryAfter] = String(Self.retryAfterSeconds) }
        if body.isEmpty {
            headers[.contentLength] = "0"
            return Response(status: status, headers: headers)
        }
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    private static func health(_ verifier: ReceiptVerifier) async -> Response {
        let ledger = verifier.ledger
        let database: String
        do {
            let answered: Void? = try await withDeadline(verifier.configuration.healthTimeout) { try await ledger.ping() }
            database = answered != nil ? "reachable" : "timeout"
        } catch {
            database = "unreachable"
        }
        let healthy = database == "reachable"
        let body = #"{"database":"\#(database)","status":"\#(healthy ? "ok" : "unavailable")"}"#
        return Response(
            status: healthy ? .ok : .serviceUnavailable,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body))
        )
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return "\(micros / 1000).\(String(micros % 1000 + 1000).dropFirst())"
    }
}
