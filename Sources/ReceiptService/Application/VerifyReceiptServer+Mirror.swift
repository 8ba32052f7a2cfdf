import AppStorePKI
import AppStoreServerAPI
import Hummingbird
import Logging
import NIOCore

extension VerifyReceiptServer {
    /// The App Store Server API mirror's paths (``AppStoreMirror``), each ending in its parameter: production's and
    /// sandbox's.
    static let mirrorRoutes: [String: HTTPRequest.Method] = Dictionary(
        uniqueKeysWithValues: ["", "/sandbox"].flatMap { prefix in
            Self.mirrorPaths.map { ("\(prefix)/\($0)/", HTTPRequest.Method.get) }
        })

    /// The mirror's paths without their parameter: Get Transaction Info, Get All Subscription Statuses, Get
    /// Transaction History v2, Get Refund History v2.
    static let mirrorPaths = ["inApps/v1/transactions", "inApps/v1/subscriptions", "inApps/v2/history", "inApps/v2/refund/lookup"]

    /// Apple's paths, each under `/inApps/…` for production and `/sandbox/inApps/…` for sandbox.
    static func addMirror(to router: Router<VerifyReceiptRequestContext>, _ server: VerifyReceiptServer, _ mirror: AppStoreMirror) {
        for (prefix, environment) in [("", AppStoreEnvironment.production), ("sandbox/", .sandbox)] {
            for path in Self.mirrorPaths {
                router.get("\(prefix)\(path)/:transactionId") { request, context in
                    let id = context.parameters.get("transactionId") ?? ""
                    let authorization = request.headers[.authorization]
                    let parameters = QueryParameters.of(request.uri)
                    return try await server.respondMirror(context: context, route: "\(prefix)\(path)") {
                        switch path {
                        case "inApps/v1/subscriptions":
                            await mirror.subscriptionStatuses(
                                environment: environment, caller: .token(authorization), transactionID: id, query: parameters)
                        case "inApps/v2/history":
                            await mirror.transactionHistory(
                                environment: environment, caller: .token(authorization), transactionID: id, query: parameters)
                        case "inApps/v2/refund/lookup":
                            await mirror.refundHistory(
                                environment: environment, caller: .token(authorization), transactionID: id, query: parameters)
                        default:
                            await mirror.transactionInfo(environment: environment, caller: .token(authorization), transactionID: id)
                        }
                    }
                }
            }
        }
    }

    /// A mirror route's answer within the request timeout (else Apple's retryable internal error), its log line, and
    /// the response: JSON, or nothing at all for a refused token.
    func respondMirror(
        context: VerifyReceiptRequestContext,
        route: String,
        _ answer: @escaping @Sendable () async -> MirrorAnswer
    ) async throws -> Response {
        let timeout = self.verifier.configuration.requestTimeout
        let answer = try await withDeadline(timeout - (ContinuousClock.now - context.received)) { await answer() }
            ?? .error(.generalInternalRetryable)
        context.log.record(.info, route, answer.logMetadata)
        return Response(
            status: answer.httpResponseStatus,
            headers: answer.body.isEmpty ? [:] : [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
