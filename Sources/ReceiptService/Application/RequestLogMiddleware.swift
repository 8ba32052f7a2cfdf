import Hummingbird
import Logging

/// Logs each answered request once, with its duration: the line its route recorded (``RequestLog``) and
/// `duration_ms` from the request's arrival at the router. Requests whose route recorded nothing (`/health`,
/// `/metrics`) are not logged. Receipt bytes never are.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = VerifyReceiptRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let response = try await next(request, context)
        if let entry = context.log.recorded {
            var metadata = entry.metadata
            metadata["duration_ms"] = .string(Self.milliseconds(ContinuousClock.now - context.received))
            context.logger.log(level: entry.level, "\(entry.message)", metadata: metadata)
        }
        return response
    }

    /// A duration in milliseconds with three decimals (`12.345`).
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return "\(micros / 1000).\(String(micros % 1000 + 1000).dropFirst())"
    }
}
