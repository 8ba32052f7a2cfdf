import AppStorePKI
import AppStoreServerAPI
import Hummingbird
import Logging
import NIOCore

extension VerifyReceiptServer {
    /// The App Store Server API mirror's paths (``AppStoreMirror``), each ending in its parameter: production's and
    /// sandbox's.
    static let mirrorRoutes: [String: HTTPRequest.Method] = [
        "/inApps/v1/transactions/": .get, "/sandbox/inApps/v1/transactions/": .get,
    ]

    /// `GET /inApps/v1/transactions/{transactionId}` and its sandbox twin.
    static func addMirror(to router: Router<VerifyReceiptRequestContext>, _ server: VerifyReceiptServer, _ mirror: AppStoreMirror) {
        for (prefix, environment) in [("", AppStoreEnvironment.production), ("sandbox/", .sandbox)] {
            router.get("\(prefix)inApps/v1/transactions/:transactionId") { request, context in
                let id = context.parameters.get("transactionId") ?? ""
                let authorization = request.headers[.authorization]
                return try await server.respondMirror(context: context, route: "\(prefix)inApps/v1/transactions") {
                    await mirror.transactionInfo(environment: environment, authorization: authorization, transactionID: id)
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
