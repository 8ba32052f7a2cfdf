package import NIOConcurrencyHelpers
package import NIOCore
package import NIOHTTP1

/// Answers each request with the next scripted `(status, headers, body)`, or never answers when the script says
/// `nil`; records each request's head and body.
package final class ScriptedHTTPHandler: ChannelInboundHandler, Sendable {
    package typealias InboundIn = HTTPServerRequestPart
    package typealias OutboundOut = HTTPServerResponsePart
    package typealias Answer = (status: Int, headers: [(String, String)], body: [UInt8])

    let script: NIOLockedValueBox<[Answer?]>
    /// The heads of the requests received, in order.
    package let heads: NIOLockedValueBox<[HTTPRequestHead]>
    /// The bodies of the requests received, in order.
    package let bodies: NIOLockedValueBox<[[UInt8]]>
    private let pending: NIOLockedValueBox<[UInt8]>

    package init(_ script: [Answer?]) {
        self.script = NIOLockedValueBox(script)
        self.heads = NIOLockedValueBox([])
        self.bodies = NIOLockedValueBox([])
        self.pending = NIOLockedValueBox([])
    }

    /// Text answers.
    package convenience init(_ script: [(Int, [(String, String)], String)?]) {
        self.init(script.map { $0.map { (status: $0.0, headers: $0.1, body: Array($0.2.utf8)) } })
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.heads.withLockedValue { $0.append(head) }
            self.pending.withLockedValue { $0 = [] }
        case .body(let buffer):
            self.pending.withLockedValue { $0 += buffer.readableBytesView }
        case .end:
            let body = self.pending.withLockedValue { $0 }
            self.bodies.withLockedValue { $0.append(body) }
            let next = self.script.withLockedValue { $0.isEmpty ? nil : $0.removeFirst() }
            guard let answer = next else { return }
            var fields = HTTPHeaders(answer.headers)
            fields.add(name: "Content-Length", value: String(answer.body.count))
            let head = HTTPResponseHead(
                version: .http1_1, status: HTTPResponseStatus(statusCode: answer.status), headers: fields)
            context.write(self.wrapOutboundOut(.head(head)), promise: nil)
            context.write(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: answer.body)))), promise: nil)
            context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
