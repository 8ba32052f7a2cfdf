import Hummingbird

/// Only a route's exact path answers, and only to its method. A variant of a path (`/metrics/`, `//metrics`,
/// `/./health`) is 404, so a proxy rule that denies the exact path cannot be slipped past; a known path asked with
/// another method (`HEAD`, `OPTIONS`, `GET /verifyReceipt`) is 405 with `Allow` naming the method it takes. Before
/// either, a body in a transfer coding other than `chunked` alone (`gzip, chunked`) is 501 on any path: it would be
/// read as if the coding were not there (RFC 9112 §6.1); its input is closed and nothing more is answered.
struct CanonicalRouteMiddleware: RouterMiddleware {
    typealias Context = VerifyReceiptRequestContext

    /// Every route's path and the one method it answers.
    let routes: [String: HTTPRequest.Method]
    /// Routes whose last segment is a parameter: the path before it (ending in `/`) and the method. The parameter is
    /// one non-empty segment: `/inApps/v1/transactions/123` answers, `/inApps/v1/transactions/` and
    /// `/inApps/v1/transactions/1/2` are 404.
    var parameterRoutes: [String: HTTPRequest.Method] = [:]
    /// Where a 501 is counted (`receiptkit_http_rejections_total{code="501"}`).
    let metrics: ServiceMetrics

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard TransferCodings.areSupported(request.headers[.transferEncoding]) else {
            self.metrics.countHTTPRejection(HTTPResponse.Status.notImplemented.code)
            context.channel.triggerUserOutboundEvent(ServerClosesInput(), promise: nil)
            context.channel.close(mode: .input, promise: nil)
            throw HTTPError(.notImplemented, headers: [.connection: "close"])
        }
        guard let method = self.routes[request.uri.path] ?? self.parameterRoute(request.uri.path) else {
            throw HTTPError(.notFound)
        }
        guard request.method == method else {
            throw HTTPError(.methodNotAllowed, headers: [.allow: method.rawValue])
        }
        return try await next(request, context)
    }

    /// The method of the parameter route `path` matches, if any.
    private func parameterRoute(_ path: String) -> HTTPRequest.Method? {
        guard !self.parameterRoutes.isEmpty, let slash = path.lastIndex(of: "/") else { return nil }
        let parameter = path[path.index(after: slash)...]
        guard !parameter.isEmpty, parameter != ".", parameter != ".." else { return nil }
        return self.parameterRoutes[String(path[...slash])]
    }
}
