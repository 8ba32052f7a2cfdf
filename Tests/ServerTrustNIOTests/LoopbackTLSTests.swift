import Crypto
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import ServerTrust
import ServerTrustNIO
import SwiftASN1
import TLSTestSupport
import Testing
import X509

/// Real TLS handshakes over 127.0.0.1: a NIOSSL server presents a generated chain, a NIOSSL client verifies it
/// through `ServerTrustEvaluator.nioVerificationCallback`, and the test asserts the handshake outcome and reason.
@Suite(.serialized)
struct LoopbackTLSTests {
    var pki: TLSTestPKI { get throws { try TLSTestPKI.shared.get() } }

    struct Outcome {
        var handshakeSucceeded: Bool
        var result: ServerTrustResult?
    }

    final class Verdicts: @unchecked Sendable {
        private let lock = NSLock()
        private var last: ServerTrustResult?
        func set(_ result: ServerTrustResult) { lock.lock(); last = result; lock.unlock() }
        var value: ServerTrustResult? { lock.lock(); defer { lock.unlock() }; return last }
    }

    /// Completes `promise` when the TLS handshake finishes or fails.
    final class HandshakeObserver: ChannelInboundHandler, Sendable {
        typealias InboundIn = NIOAny
        let promise: EventLoopPromise<Bool>

        init(promise: EventLoopPromise<Bool>) { self.promise = promise }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case TLSUserEvent.handshakeCompleted = event { self.promise.succeed(true) }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            self.promise.succeed(false)
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            self.promise.succeed(false)
            context.fireChannelInactive()
        }
    }

    func handshake(
        serverChain: [Certificate],
        serverKey: P256.Signing.PrivateKey,
        identity: ServerIdentity,
        evaluator: ServerTrustEvaluator,
        metadata: Bool = false
    ) async throws -> Outcome {
        let group = MultiThreadedEventLoopGroup.singleton

        let serverConfiguration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try serverChain.map { certificate in
                var serializer = DER.Serializer()
                try serializer.serialize(certificate)
                return .certificate(try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der))
            },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(serverKey.derRepresentation), format: .der))
        )
        let serverContext = try NIOSSLContext(configuration: serverConfiguration)
        let server = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: serverContext))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        defer { server.close(promise: nil) }
        let port = try #require(server.localAddress?.port)

        let clientContext = try NIOSSLContext(configuration: .makeClientConfiguration())
        let verdicts = Verdicts()
        let done = group.next().makePromise(of: Bool.self)
        let clock: @Sendable () -> Date = { TLSTestPKI.now }
        let client = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler: NIOSSLClientHandler
                    if metadata {
                        handler = try NIOSSLClientHandler(
                            context: clientContext,
                            serverHostname: identity.hostname,
                            customVerificationCallbackWithMetadata: evaluator.nioVerificationCallbackWithMetadata(
                                for: identity, clock: clock, onResult: { verdicts.set($0) })
                        )
                    } else {
                        handler = try NIOSSLClientHandler(
                            context: clientContext,
                            serverHostname: identity.hostname,
                            customVerificationCallback: evaluator.nioVerificationCallback(
                                for: identity, clock: clock, onResult: { verdicts.set($0) })
                        )
                    }
                    try channel.pipeline.syncOperations.addHandler(handler)
                    try channel.pipeline.syncOperations.addHandler(HandshakeObserver(promise: done))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let succeeded = try await done.futureResult.get()
        try? await client.close()
        return Outcome(handshakeSucceeded: succeeded, result: verdicts.value)
    }

    func evaluator(_ policy: ServerTrustPolicy = .default, anchors: [Certificate]) -> ServerTrustEvaluator {
        ServerTrustEvaluator(policies: ServerTrustPolicies(policy), anchors: anchors)
    }

    @Test func validChainCompletesTheHandshake() async throws {
        let pki = try self.pki
        let outcome = try await handshake(
            serverChain: pki.chain,
            serverKey: pki.leaf.key,
            identity: .host("localhost"),
            evaluator: evaluator(anchors: [pki.root.certificate])
        )
        #expect(outcome.handshakeSucceeded)
        #expect(outcome.result?.failures == [])
    }

    @Test func metadataCallbackAlsoCompletesTheHandshake() async throws {
        let pki = try self.pki
        let outcome = try await handshake(
            serverChain: pki.chain,
            serverKey: pki.leaf.key,
            identity: .ip("127.0.0.1"),
            evaluator: evaluator(anchors: [pki.root.certificate]),
            metadata: true
        )
        #expect(outcome.handshakeSucceeded)
        #expect(outcome.result?.chain.count == 3)
    }

    @Test func wrongHostFailsTheHandshake() async throws {
        let pki = try self.pki
        let outcome = try await handshake(
            serverChain: pki.chain,
            serverKey: pki.leaf.key,
            identity: .host("evil.example.test"),
            evaluator: evaluator(anchors: [pki.root.certificate])
        )
        #expect(!outcome.handshakeSucceeded)
        #expect(outcome.result?.failures == [.hostnameMismatch])
    }

    @Test func untrustedRootFailsTheHandshake() async throws {
        let pki = try self.pki
        let outcome = try await handshake(
            serverChain: pki.chain,
            serverKey: pki.leaf.key,
            identity: .host("localhost"),
            evaluator: evaluator(anchors: [pki.otherRoot.certificate])
        )
        #expect(!outcome.handshakeSucceeded)
        #expect(outcome.result?.failures == [.chainUntrusted])
    }

    @Test func expiredLeafFailsTheHandshake() async throws {
        let pki = try self.pki
        let outcome = try await handshake(
            serverChain: [pki.expiredLeaf.certificate, pki.intermediate.certificate],
            serverKey: pki.expiredLeaf.key,
            identity: .host("localhost"),
            evaluator: evaluator(anchors: [pki.root.certificate])
        )
        #expect(!outcome.handshakeSucceeded)
        #expect(outcome.result?.failures == [.expired])
    }

    @Test func publicKeyPinningOverTLS() async throws {
        let pki = try self.pki
        let pinned = try ServerTrustPolicy(
            mode: .publicKey,
            pins: [try #require(PublicKeyPin(publicKeyOf: pki.intermediate.certificate))],
            requiresBackupPin: false
        )
        let good = try await handshake(
            serverChain: pki.chain, serverKey: pki.leaf.key, identity: .host("localhost"),
            evaluator: evaluator(pinned, anchors: [pki.root.certificate])
        )
        #expect(good.handshakeSucceeded)
        let wrongPin = try ServerTrustPolicy(
            mode: .publicKey,
            pins: [try #require(PublicKeyPin(publicKeyOf: pki.unrelated.certificate))],
            requiresBackupPin: false
        )
        let bad = try await handshake(
            serverChain: pki.chain, serverKey: pki.leaf.key, identity: .host("localhost"),
            evaluator: evaluator(wrongPin, anchors: [pki.root.certificate])
        )
        #expect(!bad.handshakeSucceeded)
        #expect(bad.result?.failures == [.pinMismatch])
    }

    @Test func selfSignedServerTrustedOnlyByItsPinnedCertificate() async throws {
        let pki = try self.pki
        let unpinned = try await handshake(
            serverChain: [pki.selfSigned.certificate], serverKey: pki.selfSigned.key, identity: .host("localhost"),
            evaluator: evaluator(anchors: [pki.root.certificate])
        )
        #expect(!unpinned.handshakeSucceeded)
        #expect(unpinned.result?.failures == [.chainUntrusted])
        let policy = try ServerTrustPolicy(
            mode: .certificate,
            pinnedCertificates: [pki.selfSigned.certificate],
            requiresBackupPin: false
        )
        let pinned = try await handshake(
            serverChain: [pki.selfSigned.certificate], serverKey: pki.selfSigned.key, identity: .host("localhost"),
            evaluator: evaluator(policy, anchors: [])
        )
        #expect(pinned.handshakeSucceeded)
    }
}
