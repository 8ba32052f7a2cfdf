import Hummingbird

/// Only a route's exact path answers, and only to its method. A variant of a path (`/metrics/`, `//metrics`,
/// `/./health`) is 404, so a proxy rule that denies the exact path cannot be slipped past; a known path asked with
/// another method (`HEAD`, `OPTIONS`, `GET /verifyReceipt`) is 405 with `Allow` naming the method it takes.
struct CanonicalRouteMiddleware: RouterMiddleware {
    typealias Context = VerifyReceiptRequestContext

    /// Every route's path and the one method it answers.
    let routes: [String: HTTPRequest.Method]

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let method = self.routes[request.uri.path] else { throw HTTPError(.notFound) }
        guard request.method == method else {
            throw HTTPError(.methodNotAllowed, headers: [.allow: method.rawValue])
        }
        return try await next(request, context)
    }
}
