import Hummingbird
import Logging
import NIOCore
import NIOHTTPTypes

extension VerifyReceiptServer {
    /// Runs `handle` on the request's body, read as it arrives (``BodyIntake``) within the size limit, the
    /// in-flight budget and its clocks: 413 from `Content-Length` or while reading (the rest never buffered); 503
    /// with `Retry-After` when the budget, or the share of the client's address, is full — before any of the body
    /// is read when it already is (a client that sent `Expect: 100-continue` gets `100 Continue` only once there is
    /// room), else at the chunk that did not fit; 408 when the body pauses longer than the stall timeout or is not
    /// in within the request timeout (a transfer coding other than `chunked` was refused with 501 by
    /// ``CanonicalRouteMiddleware``); each refusal logged as `ROUTE refused`. What the body holds of the budget is
    /// given back once `handle` has answered.
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
        let address = PeerAddress.shareKey(context.channel.remoteAddress)
        let first = min(declared ?? limit, BodyIntake.firstChunk)
        if let refusal = self.bodyBudget.refusal(for: address, bytes: first, mayBorrow: declared != nil) {
            return self.refuse(.serviceUnavailable, context: context, route: route, body: busyBody, budget: refusal)
        }
        // The body is wanted: a client that asked first (`Expect: 100-continue`, as curl does past 1 MiB) is told
        // so now, rather than waiting a second for an answer that would never come. Refusals above came before it.
        if request.headers[.expect]?.lowercased() == "100-continue" {
            context.channel.writeAndFlush(HTTPResponsePart.head(HTTPResponse(status: .continue)), promise: nil)
        }
        let hold = BodyIntake.Hold(address: address)
        defer { hold.release(to: self.bodyBudget) }
        let intake = BodyIntake(
            budget: self.bodyBudget, sizeLimit: limit, declaredLength: declared,
            stallTimeout: configuration.bodyStallTimeout, requestTimeout: configuration.requestTimeout)
        switch try await intake.read(request.body, into: hold) {
        case .complete(let body):
            return try await handle(Array(body.readableBytesView))
        case .tooLarge:
            return self.refuse(.contentTooLarge, context: context, route: route)
        case .refused(let refusal):
            return self.refuse(.serviceUnavailable, context: context, route: route, body: busyBody, budget: refusal)
        case .stalled:
            self.verifier.metrics.countClosedConnection(reason: .bodyStalled)
            return self.refuse(.requestTimeout, context: context, route: route)
        case .timedOut:
            self.verifier.metrics.countClosedConnection(reason: .bodyTimeout)
            return self.refuse(.requestTimeout, context: context, route: route)
        }
    }

    /// A refusal before any verdict: the status (503 with `Retry-After`), `body` (empty unless given, then JSON),
    /// and the connection closed so the rest of the body is never read. A budget refusal logs which budget
    /// (`body_budget`: `full` or `address_share`).
    private func refuse(
        _ status: HTTPResponse.Status,
        context: VerifyReceiptRequestContext,
        route: String,
        body: [UInt8] = [],
        budget: BodyBudget.Refusal? = nil
    ) -> Response {
        self.verifier.metrics.countHTTPRejection(status.code)
        var metadata: Logger.Metadata = ["http_status": .stringConvertible(status.code)]
        if let budget { metadata["body_budget"] = .string(budget.rawValue) }
        context.log.record(.notice, "\(route) refused", metadata)
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
