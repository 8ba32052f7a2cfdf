import Hummingbird
import Logging
import NIOCore

extension VerifyReceiptServer {
    /// The entitlements endpoint's path, served when an admin token is configured.
    static let entitlementsRoute: [String: HTTPRequest.Method] = ["/v1/entitlements": .get]

    /// `GET /v1/entitlements?bundle_id=…&environment=…&transaction_id=…` (``EntitlementEndpoint``).
    static func addEntitlements(
        to router: Router<VerifyReceiptRequestContext>, _ server: VerifyReceiptServer, _ endpoint: EntitlementEndpoint
    ) {
        router.get("v1/entitlements") { request, context in
            let authorization = request.headers[.authorization]
            let parameters = QueryParameters.of(request.uri)
            let timeout = server.verifier.configuration.requestTimeout
            let answer =
                try await withDeadline(timeout - (ContinuousClock.now - context.received)) {
                    await endpoint.answer(authorization: authorization, query: parameters)
                }
                ?? .refused(EntitlementRefusal(.unavailable, .timeout, "the ledger did not answer in time; try again"))
            context.log.record(.info, "v1/entitlements", answer.logMetadata)
            var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
            if answer.outcome == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
            return Response(
                status: answer.httpResponseStatus, headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
    }
}
