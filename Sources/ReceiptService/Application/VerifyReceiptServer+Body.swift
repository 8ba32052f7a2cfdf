import Hummingbird
import Logging
import NIOCore
import NIOHTTPTypes

extension VerifyReceiptServer {
    /// Runs `handle` on the request's body, read within the request timeout, the size limit and the in-flight
    /// budget: 413 from `Content-Length` or while reading (the rest never buffered), 503 with `Retry-After` when
    /// the budget cannot cover the body (before any of it is read; a client that sent `Expect: 100-continue` gets
    /// `100 Continue` once it is admitted), 408 when it does not arrive in time (a transfer coding other than
    /// `chunked` was refused with 501 by ``CanonicalRouteMiddleware``); each refusal
    /// logged as `ROUTE refused`. The reservation is held until `handle` has answered.
    func withBody(
        _ request: Request,
        context: VerifyReceiptRequestContext,
        route: String,
        busyBody: [UInt8] = [],
        _ handle: ([UInt8]) async throws -> Response
    ) async throws -> Response {
        let configuration = self.verifier.configuration
        let limit = configuration.maximumBodySize
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared, declared > limit {
            return self.refuse(.contentTooLarge, context: context, route: route)
        }
        let reservation = declared ?? limit
        guard self.bodyBudget.reserve(reservation) else {
            return self.refuse(.serviceUnavailable, context: context, route: route, body: busyBody)
        }
        defer { self.bodyBudget.release(reservation) }
        // The body is wanted: a client that asked first (`Expect: 100-continue`, as curl does past 1 MiB) is told
        // so now, rather than waiting a second for an answer that would never come. Refusals above came before it.
        if request.headers[.expect]?.lowercased() == "100-continue" {
            context.channel.writeAndFlush(HTTPResponsePart.head(HTTPResponse(status: .continue)), promise: nil)
        }
        let body: ByteBuffer?
        do {
            let stream = request.body
            body = try await withDeadline(configuration.requestTimeout) { try await stream.collect(upTo: limit) }
        } catch is NIOTooManyBytesError {
            return self.refuse(.contentTooLarge, context: context, route: route)
        }
        guard let body else {
            self.verifier.metrics.countClosedConnection(reason: .bodyTimeout)
            return self.refuse(.requestTimeout, context: context, route: route)
        }
        return try await handle(Array(body.readableBytesView))
    }

    /// A refusal before any verdict: the status (503 with `Retry-After`), `body` (empty unless given, then JSON),
    /// and the connection closed so the rest of the body is never read.
    private func refuse(
        _ status: HTTPResponse.Status,
        context: VerifyReceiptRequestContext,
        route: String,
        body: [UInt8] = []
    ) -> Response {
        self.verifier.metrics.countHTTPRejection(status.code)
        context.log.record(.notice, "\(route) refused", ["http_status": .stringConvertible(status.code)])
        // The rest of the body is never read; the decoder's error about it must not answer a second time.
        context.channel.triggerUserOutboundEvent(ServerClosesInput(), promise: nil)
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
}
