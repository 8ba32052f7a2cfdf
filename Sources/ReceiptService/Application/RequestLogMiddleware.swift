import Hummingbird
import Logging

/// Logs every request once, when it ends, with its duration (`duration_ms`, from the request's arrival at the
/// router). A route that answers a body records its own line (``RequestLog``: `verifyReceipt`, `notification`,
/// `jws`, or `… refused`); any other request is logged as its method and path with the HTTP status — `/health` and
/// `/metrics` answered 200 at debug (probes and scrapes every few seconds would drown the rest), everything else
/// (an unknown path, a wrong method, an unhealthy answer) at info. Receipt bytes never are, nor a query string.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = VerifyReceiptRequestContext

    /// The longest path logged as it is; a longer one is cut there and marked (`…`).
    static let maximumLoggedPath = 128

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            // An unknown path or method (Hummingbird's 404 and 405 are thrown) or a failure: logged, then answered
            // by Hummingbird as before.
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            self.log(request, context: context, status: status)
            throw error
        }
        self.log(request, context: context, status: response.status)
        return response
    }

    private func log(_ request: Request, context: Context, status: HTTPResponse.Status) {
        let duration = Logger.MetadataValue.string(Self.milliseconds(ContinuousClock.now - context.received))
        if let entry = context.log.recorded {
            var metadata = entry.metadata
            metadata["duration_ms"] = duration
            context.logger.log(level: entry.level, "\(entry.message)", metadata: metadata)
            return
        }
        let path = Self.loggedPath(request.uri.path)
        let probe = request.method == .get && ["/health", "/metrics"].contains(path)
        context.logger.log(
            level: probe && status == .ok ? .debug : .info,
            "\(request.method) \(path)",
            metadata: ["http_status": .stringConvertible(status.code), "duration_ms": duration]
        )
    }

    /// `path` as logged: at most ``maximumLoggedPath`` characters.
    static func loggedPath(_ path: String) -> String {
        path.count > Self.maximumLoggedPath ? String(path.prefix(Self.maximumLoggedPath)) + "…" : path
    }

    /// A duration in milliseconds with three decimals (`12.345`).
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return "\(micros / 1000).\(String(micros % 1000 + 1000).dropFirst())"
    }
}
