import AppStoreJWS
public import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
import ReceiptLedger
public import ServiceLifecycle

/// The HTTP face of a ``ReceiptVerifier``: Apple's two verifyReceipt endpoints, notifications, JWS verification, a
/// health check and metrics. ``buildApplication(configuration:)`` composes one from a configuration; create one
/// yourself from ``ServiceComponents`` to serve a ledger of your own (tests do).
///
/// | route | answer |
/// |---|---|
/// | `POST /verifyReceipt` | verifyReceipt as Apple's production host |
/// | `POST /sandbox/verifyReceipt` | as its sandbox host |
/// | `POST /notifications/v2` | App Store Server Notifications V2: verified, recorded once per `notificationUUID` |
/// | `POST /jws/verify` | any App Store JWS (`?kind=` optional): the verdict and the decoded payload; only with ``VerifyReceiptConfiguration/servesJWSVerify`` |
/// | `GET /health` | 200 when the ledger answers within the health timeout, 503 when it fails or is late |
/// | `GET /metrics` | Prometheus text |
///
/// Every verifyReceipt verdict is HTTP 200 with a `status`, whatever the request's Content-Type; signed data is
/// answered with the status its ``SignedDataOutcome`` maps to. A body over the configured size is refused with
/// HTTP 413 before it is read; one that does not arrive within the request timeout, 408; one the in-flight body
/// budget cannot cover, 503 with `Retry-After` (none of it read). Connections are capped and must send their
/// headers within the header-read timeout (see ``VerifyReceiptConfiguration``). Each answered request is logged
/// once, with its duration, by a middleware.
///
/// ```swift
/// let components = try ServiceComponents(configuration: configuration, ledger: ledger, now: { Date() })
/// let server = VerifyReceiptServer(components: components, host: "127.0.0.1", port: 8080, logger: logger)
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
    /// Whether `GET /health` and `GET /metrics` are among the routes (the default); `false` when they have a
    /// listener of their own (``probeApplication(_:onServerRunning:)``): the main listener then answers 404 for them.
    public var servesProbes = true
    /// The bytes of bodies held at once, shared by every request.
    let bodyBudget: BodyBudget
    /// The open connections, against their cap.
    let connections: OpenConnections
    /// The components' lifecycle services (the App Store Server API refresh), run by every application of the
    /// server.
    let componentServices: [any Service]
    /// Whether the main listener is bound: the probes' own listener answers `/health` 503 until it is.
    let readiness = ServerReadiness()

    /// Creates a server of `components`' verifier, body budget and connection cap.
    public init(components: ServiceComponents, host: String = "127.0.0.1", port: Int = 8080, logger: Logger) {
        self.verifier = components.verifier
        self.host = host
        self.port = port
        self.logger = logger
        self.bodyBudget = components.bodyBudget
        self.connections = components.connections
        self.componentServices = components.services
    }

    /// How many seconds a client refused for the body budget is told to wait (`Retry-After`).
    static let retryAfterSeconds = 1

    /// The answering routes' paths and methods: only these exact paths answer (``CanonicalRouteMiddleware``).
    static let routes: [String: HTTPRequest.Method] = [
        "/verifyReceipt": .post, "/sandbox/verifyReceipt": .post, "/notifications/v2": .post,
    ]
    /// The operator's route, when ``VerifyReceiptConfiguration/servesJWSVerify`` is on.
    static let jwsRoute: [String: HTTPRequest.Method] = ["/jws/verify": .post]
    /// The connections the probes' own listener holds at once.
    static let probeConnections = 64

    /// The probes' paths and methods.
    static let probeRoutes: [String: HTTPRequest.Method] = ["/health": .get, "/metrics": .get]

    /// The routes, behind the request-log middleware and the exact-path rule; the probes too unless they have a
    /// listener of their own (``servesProbes``).
    public func router() -> Router<VerifyReceiptRequestContext> {
        let router = Router(context: VerifyReceiptRequestContext.self)
        router.add(middleware: RequestLogMiddleware())
        let servesJWS = self.verifier.configuration.servesJWSVerify
        var routes = servesJWS ? Self.routes.merging(Self.jwsRoute) { $1 } : Self.routes
        if self.servesProbes { routes.merge(Self.probeRoutes) { $1 } }
        let verifier = self.verifier
        let refresh: @Sendable (LedgerQuery, Bool) async -> Bool = { query, stale in
            await verifier.refreshIfDue(query, now: verifier.now(), stale: stale)
        }
        let mirror = AppStoreMirror(
            configuration: verifier.configuration.appStoreServerAPI, ledger: verifier.ledger, now: verifier.now,
            refresh: refresh)
        let tokens = AdminTokens(verifier.configuration.adminTokens)
        let entitlements =
            tokens.isEmpty
            ? nil
            : EntitlementEndpoint(
                ledger: verifier.ledger, tokens: tokens, names: verifier.configuration.entitlements, now: verifier.now,
                refresh: refresh)
        var parameterRoutes = mirror == nil ? [:] : Self.mirrorRoutes
        if entitlements != nil {
            routes.merge(Self.entitlementsRoute) { $1 }
            routes.merge(Self.signRoutes) { $1 }
            routes.merge(Self.timelineRoute) { $1 }
            parameterRoutes.merge(Self.timelineParameterRoute) { $1 }
        }
        router.add(
            middleware: CanonicalRouteMiddleware(
                routes: routes, parameterRoutes: parameterRoutes, metrics: self.verifier.metrics))
        let server = self
        let production = AnsweringRoute.verifyReceipt(.production, verifier)
        let sandbox = AnsweringRoute.verifyReceipt(.sandbox, verifier)
        let notification = AnsweringRoute.signedData(.notifications) { body in
            await verifier.answerNotification(body: body)
        }
        router.post("verifyReceipt") { request, context in
            try await server.respond(request, context: context, route: production)
        }
        router.post("sandbox/verifyReceipt") { request, context in
            try await server.respond(request, context: context, route: sandbox)
        }
        router.post("notifications/v2") { request, context in
            try await server.respond(request, context: context, route: notification)
        }
        if servesJWS { Self.addJWSVerify(to: router, server) }
        if let mirror { Self.addMirror(to: router, server, mirror) }
        if let entitlements {
            Self.addEntitlements(to: router, server, entitlements)
            Self.addTimeline(to: router, server, TimelineEndpoint(entitlements: entitlements))
            Self.addSign(
                to: router, server,
                SignEndpoint(tokens: tokens, apps: verifier.configuration.appStoreServerAPI.apps, now: verifier.now))
        }
        if self.servesProbes { Self.addProbes(to: router, verifier) }
        return router
    }

    /// `POST /jws/verify[?kind=…]`.
    private static func addJWSVerify(to router: Router<VerifyReceiptRequestContext>, _ server: VerifyReceiptServer) {
        let verifier = server.verifier
        router.post("jws/verify") { request, context in
            let name = request.uri.queryParameters.get("kind")
            let kind = name.flatMap { AppStoreSignedDataKind($0) }
            if name != nil, kind == nil {
                return Self.response(
                    ReceiptVerifier.answer(
                        .malformed, [.unknownPayloadKind],
                        reason: "kind is transaction, renewal-info, app-transaction or notification"))
            }
            return try await server.respond(
                request, context: context,
                route: .signedData(.jws) { body in await verifier.answerJWS(body: body, kind: kind) })
        }
    }

    /// `GET /health` and `GET /metrics` alone, behind the same middleware: the router of a listener of their own,
    /// whose `/health` is 503 `starting` until the main listener is bound.
    public func probeRouter() -> Router<VerifyReceiptRequestContext> {
        let router = Router(context: VerifyReceiptRequestContext.self)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: CanonicalRouteMiddleware(routes: Self.probeRoutes, metrics: self.verifier.metrics))
        Self.addProbes(to: router, self.verifier, readiness: self.readiness)
        return router
    }

    private static func addProbes(
        to router: Router<VerifyReceiptRequestContext>, _ verifier: ReceiptVerifier, readiness: ServerReadiness? = nil
    ) {
        router.get("health") { _, _ in
            if let readiness, !readiness.isReady {
                return Response(
                    status: .serviceUnavailable, headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"starting"}"#)))
            }
            return await Self.health(verifier)
        }
        router.get("metrics") { _, _ in
            verifier.metrics.observe(cache: verifier.ledger.cacheStatistics)
            verifier.metrics.observe(writes: verifier.ledger.writeStatistics)
            verifier.metrics.observe(notificationsAt: verifier.now())
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: verifier.metrics.exposition()))
            )
        }
    }

    /// The listener of `GET /health` and `GET /metrics` alone, on `listener` (run it beside ``application(services:onServerRunning:)``,
    /// with ``servesProbes`` off): the same connection limits, no other route.
    public func probeApplication(
        _ listener: ProbeListener,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol & Service {
        // Connections of their own: at the main listener's cap the probes still answer (and count in no gauge).
        let connections = OpenConnections(
            limit: Self.probeConnections, addressLimit: Self.probeConnections, metrics: nil)
        return Application(
            router: self.probeRouter(),
            server: self.guardedHTTP1(connections: connections),
            configuration: ApplicationConfiguration(
                address: .hostname(listener.host, port: listener.port), serverName: "receiptkit"),
            onServerRunning: onServerRunning,
            logger: self.logger
        )
    }

    /// The Hummingbird application: the routes on `host:port` behind the connection limits, with the components'
    /// ``ServiceComponents/services`` (the App Store Server API refresh and the notification backfill, whose calls to
    /// Apple are cancelled when the server stops) and `services` (a `PostgresLedger`, say) run beside the server and
    /// shut down with it on SIGTERM/SIGINT — the components' first, then `services` in reverse order.
    /// The refresh runs in one application at a time: a second application of the same server running at once
    /// stops with an error that says so.
    public func application(
        services: [any Service] = [],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> Application<RouterResponder<VerifyReceiptRequestContext>> {
        return Application(
            router: self.router(),
            server: self.guardedHTTP1(connections: self.connections),
            configuration: ApplicationConfiguration(
                address: .hostname(self.host, port: self.port),
                serverName: "receiptkit"
            ),
            // The components' services (the API refresh, the notification backfill) after the caller's: a service
            // group stops services in reverse order, so they stop before what they use (the ledger's lifecycle,
            // which the composition root lists first, stops last).
            services: services + self.componentServices,
            onServerRunning: { [readiness] channel in
                readiness.markReady()
                await onServerRunning(channel)
            },
            logger: self.logger
        )
    }

    /// HTTP/1.1 behind the service's connection limits (the cap, the per-address share, the header-read, idle and
    /// response-write timeouts), shared by the main listener and the probes' own.
    private func guardedHTTP1(connections: OpenConnections) -> HTTPServerBuilder {
        let configuration = self.verifier.configuration
        let metrics = self.verifier.metrics
        let headerReadTimeout = TimeAmount(configuration.headerReadTimeout)
        let idleTimeout = TimeAmount(configuration.idleTimeout)
        let writeTimeout = TimeAmount(configuration.responseWriteTimeout)
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                http1: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idleTimeout)),
                connections: connections,
                headerReadTimeout: headerReadTimeout,
                responseWriteTimeout: writeTimeout,
                metrics: metrics)
        }
    }

    /// The one handler path of the answering routes: the body read within its limits, the route's answer within
    /// what is left of the request timeout (else its timeout answer), the log line recorded, the JSON response.
    func respond(
        _ request: Request,
        context: VerifyReceiptRequestContext,
        route: AnsweringRoute
    ) async throws -> Response {
        let timeout = self.verifier.configuration.requestTimeout
        return try await self.withBody(request, context: context, route: route.name, busyBody: route.busyBody) { bytes in
            let answer =
                try await withDeadline(timeout - (ContinuousClock.now - context.received)) {
                    await route.answer(bytes)
                } ?? route.timedOut
            var metadata = answer.logMetadata
            for (key, value) in route.metadata { metadata[key] = .string(value) }
            metadata["body_bytes"] = .stringConvertible(bytes.count)
            context.log.record(.info, route.name, metadata)
            return Self.response(answer)
        }
    }

    /// An answer as an HTTP response: its status and its JSON body.
    static func response(_ answer: some HTTPAnswer) -> Response {
        Response(
            status: answer.httpResponseStatus,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
        )
    }
}
