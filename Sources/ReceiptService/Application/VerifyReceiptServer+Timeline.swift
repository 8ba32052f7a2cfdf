import Hummingbird
import Logging
import NIOCore

extension VerifyReceiptServer {
    /// The timeline page's search path, served when an admin token is configured.
    static let timelineRoute: [String: HTTPRequest.Method] = ["/ui/subscriptions": .get]
    /// The customer pages' path, ending in the original transaction id.
    static let timelineParameterRoute: [String: HTTPRequest.Method] = ["/ui/subscriptions/": .get]

    /// `GET /ui/subscriptions[?bundle_id=…&environment=…&q=…]` and `GET /ui/subscriptions/{originalTransactionId}`
    /// (``TimelineEndpoint``).
    static func addTimeline(
        to router: Router<VerifyReceiptRequestContext>, _ server: VerifyReceiptServer, _ endpoint: TimelineEndpoint
    ) {
        router.get("ui/subscriptions") { request, context in
            let authorization = request.headers[.authorization]
            let parameters = QueryParameters.of(request.uri)
            let crossSite = TimelineAnswer.isCrossSite(request.headers)
            return try await server.respondTimeline(context: context, route: "ui/subscriptions") {
                crossSite ? .crossSite : await endpoint.search(authorization: authorization, query: parameters)
            }
        }
        router.get("ui/subscriptions/:originalTransactionId") { request, context in
            let authorization = request.headers[.authorization]
            let parameters = QueryParameters.of(request.uri)
            let id = context.parameters.get("originalTransactionId") ?? ""
            let crossSite = TimelineAnswer.isCrossSite(request.headers)
            return try await server.respondTimeline(context: context, route: "ui/subscriptions/{id}") {
                crossSite
                    ? .crossSite : await endpoint.page(authorization: authorization, originalTransactionID: id, query: parameters)
            }
        }
    }

    private func respondTimeline(
        context: VerifyReceiptRequestContext, route: String, _ answer: @escaping @Sendable () async -> TimelineAnswer
    ) async throws -> Response {
        let timeout = self.verifier.configuration.requestTimeout
        let answer =
            try await withDeadline(timeout - (ContinuousClock.now - context.received)) { await answer() }
            ?? .page(.unavailable, TimelinePage.search(TimelinePage.Search(), message: "the ledger did not answer in time; try again"))
        context.log.record(.info, route, answer.logMetadata)
        return answer.response
    }
}
