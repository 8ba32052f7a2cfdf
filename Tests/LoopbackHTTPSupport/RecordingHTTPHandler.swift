import NIOConcurrencyHelpers
package import NIOCore
package import NIOHTTP1

/// A receiver whose answer to each request `decide` chooses from the request's number (from 0), head and body: a
/// status with a body, or `nil` to never answer (a stalled server). Records every request it read.
package final class RecordingHTTPHandler: ChannelInboundHandler, Sendable {
    package typealias InboundIn = HTTPServerRequestPart
    package typealias OutboundOut = HTTPServerResponsePart
    package typealias Decide = @Sendable (_ index: Int, _ head: HTTPRequestHead, _ body: [UInt8]) -> (status: Int, body: String)?

    /// One request as received.
    package struct Received: Sendable {
        package let head: HTTPRequestHead
        package let body: [UInt8]
        /// What it was answered (`nil`: nothing).
        package let status: Int?

        /// A header's first value.
        package func header(_ name: String) -> String? { self.head.headers.first(name: name) }
    }

    private let decide: NIOLockedValueBox<Decide>
    /// The requests read, and each connection's request being read (one handler serves every connection).
    private let state = NIOLockedValueBox<(received: [Received], reading: [ObjectIdentifier: (head: HTTPRequestHead, body: [UInt8])])>(([], [:]))

    package init(_ decide: @escaping Decide) {
        self.decide = NIOLockedValueBox(decide)
    }

    /// Every request read so far, in order.
    package var received: [Received] { self.state.withLockedValue { $0.received } }

    /// Answers from now on as `decide` says.
    package func answer(_ decide: @escaping Decide) {
        self.decide.withLockedValue { $0 = decide }
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            let connection = ObjectIdentifier(context.channel)
            self.state.withLockedValue { $0.reading[connection] = (head, []) }
        case .body(let buffer):
            let connection = ObjectIdentifier(context.channel)
            self.state.withLockedValue { $0.reading[connection]?.body += buffer.readableBytesView }
        case .end:
            let decide = self.decide.withLockedValue { $0 }
            let connection = ObjectIdentifier(context.channel)
            // Numbered, decided and recorded at once: concurrent requests each get their own number.
            let decided = self.state.withLockedValue { state -> (answer: (status: Int, body: String)?, read: Bool) in
                guard let request = state.reading.removeValue(forKey: connection) else { return (nil, false) }
                let answer = decide(state.received.count, request.head, request.body)
                state.received.append(Received(head: request.head, body: request.body, status: answer?.status))
                return (answer, true)
            }
            guard decided.read, let answer = decided.answer else { return }
            let bytes = Array(answer.body.utf8)
            var fields = HTTPHeaders()
            fields.add(name: "Content-Length", value: String(bytes.count))
            let response = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: answer.status), headers: fields)
            context.write(self.wrapOutboundOut(.head(response)), promise: nil)
            context.write(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
            context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
