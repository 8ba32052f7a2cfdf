import Foundation
import NIOConcurrencyHelpers
import ReceiptKitTesting
import Testing
import X509

@testable import AppStoreJWS

/// ``RevocationCache`` on its own: the bound on fetches under way, the lifetime rule, and the wait scope.
@Suite("Revocation cache")
struct RevocationCacheTests {
    /// Distinct paths to key verdicts by.
    static func paths(_ count: Int) throws -> [[Certificate]] {
        try (0..<count).map { _ in
            let authority = try JWSTestAuthority()
            return [authority.leaf.certificate, authority.intermediate.certificate, authority.root.certificate]
        }
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let lifetime = OCSPResponseLifetime(thisUpdate: now.addingTimeInterval(-60), nextUpdate: now.addingTimeInterval(600))

    @Test("at most maximumConcurrentFetches fetches of different paths run at once; the rest queue")
    func fetchesAreBounded() async throws {
        let cache = RevocationCache(maximumConcurrentFetches: 2)
        let running = NIOLockedValueBox((now: 0, most: 0))
        let paths = try Self.paths(5)
        await withTaskGroup(of: RevocationChecker.Outcome.self) { group in
            for path in paths {
                group.addTask {
                    await cache.outcome(for: path, now: Self.now, scope: nil) {
                        running.withLockedValue { $0.now += 1; $0.most = max($0.most, $0.now) }
                        try? await Task.sleep(for: .milliseconds(100))
                        running.withLockedValue { $0.now -= 1 }
                        return RevocationCache.Fetched(outcome: .good, lifetime: Self.lifetime)
                    }
                }
            }
            for await outcome in group { #expect(outcome == .good) }
        }
        #expect(running.withLockedValue { $0.most } == 2)
        #expect(cache.fetches == 5 && cache.count == 5)
    }

    @Test("a kept verdict answers only within its answers' lifetime; at most capacity are kept")
    func keptWithinTheLifetime() async throws {
        let cache = RevocationCache(capacity: 2)
        let paths = try Self.paths(3)
        let fetch: @Sendable () async -> RevocationCache.Fetched = {
            RevocationCache.Fetched(outcome: .revoked, lifetime: Self.lifetime)
        }
        for at in [Self.now, Self.now.addingTimeInterval(599)] {
            #expect(await cache.outcome(for: paths[0], now: at, scope: nil, fetch: fetch) == .revoked)
        }
        #expect(cache.fetches == 1)
        // Before thisUpdate (by more than the policy's leeway) and at nextUpdate the verdict is not used.
        _ = await cache.outcome(for: paths[0], now: Self.now.addingTimeInterval(-61 - 4500), scope: nil, fetch: fetch)
        #expect(cache.fetches == 2)
        _ = await cache.outcome(for: paths[0], now: Self.now.addingTimeInterval(-60 - 4500), scope: nil, fetch: fetch)
        #expect(cache.fetches == 2)
        _ = await cache.outcome(for: paths[0], now: Self.now.addingTimeInterval(600), scope: nil, fetch: fetch)
        #expect(cache.fetches == 3)
        for path in paths.dropFirst() { _ = await cache.outcome(for: path, now: Self.now, scope: nil, fetch: fetch) }
        #expect(cache.count == 2)
        // An outcome without a lifetime, or not an answer, is not kept.
        let unkept = RevocationCache()
        _ = await unkept.outcome(for: paths[0], now: Self.now, scope: nil) { .init(outcome: .good, lifetime: nil) }
        _ = await unkept.outcome(for: paths[1], now: Self.now, scope: nil) { .init(outcome: .unknown, lifetime: Self.lifetime) }
        #expect(unkept.count == 0)
    }

    @Test("every wait for a fetch, one's own or another's, runs inside the wait scope; a kept verdict needs none")
    func waitsRunInTheScope() async throws {
        let scope = CountingScope()
        let cache = RevocationCache()
        let path = try Self.paths(1)[0]
        let fetch: @Sendable () async -> RevocationCache.Fetched = {
            try? await Task.sleep(for: .milliseconds(100))
            return RevocationCache.Fetched(outcome: .good, lifetime: Self.lifetime)
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 { group.addTask { _ = await cache.outcome(for: path, now: Self.now, scope: scope, fetch: fetch) } }
        }
        _ = await cache.outcome(for: path, now: Self.now, scope: scope, fetch: fetch)
        #expect(scope.waits == 3)
        #expect(cache.fetches == 1)
    }

    @Test(
        "an OCSP response's lifetime is its single responses' common span; without nextUpdate it has none",
        .enabled(if: OpenSSLOCSPResponder.executable != nil, Comment(rawValue: OpenSSLOCSPResponder.skipMessage)))
    func lifetimeOfAResponse() async throws {
        let authority = try JWSTestAuthority(leafOCSPURI: "http://ocsp.receiptkit.test/ocsp")
        let responder = try OpenSSLOCSPResponder(for: authority.leaf.certificate, status: .good, issuer: authority.intermediate)
        let recorder = RecordingTransport(responder)
        let check = JWSRevocationCheck(transport: recorder)
        _ = await RevocationChecker(check: check).evaluate(
            path: [authority.leaf.certificate, authority.intermediate.certificate, authority.root.certificate], now: Date())
        let response = try #require(recorder.responses.first)
        let lifetime = try #require(OCSPResponseLifetime(derEncoded: response))
        #expect(lifetime.nextUpdate.timeIntervalSince(lifetime.thisUpdate) == 600)  // `openssl ocsp -nmin 10`
        #expect(OCSPResponseLifetime(derEncoded: Array(response.dropLast())) == nil)
        #expect(OCSPResponseLifetime(derEncoded: [0x30, 0x03, 0x0A, 0x01, 0x01]) == nil)  // malformedRequest
    }
}

/// Counts the waits run inside it.
final class CountingScope: RevocationWaitScope {
    private let count = NIOLockedValueBox(0)
    var waits: Int { self.count.withLockedValue { $0 } }

    func waiting<T: Sendable>(_ wait: @escaping @Sendable () async -> T) async -> T {
        self.count.withLockedValue { $0 += 1 }
        return await wait()
    }
}

/// Passes requests on and keeps the responses.
final class RecordingTransport: OCSPTransport {
    private let inner: any OCSPTransport
    private let kept = NIOLockedValueBox<[[UInt8]]>([])
    var responses: [[UInt8]] { self.kept.withLockedValue { $0 } }

    init(_ inner: any OCSPTransport) {
        self.inner = inner
    }

    func response(to request: [UInt8], from uri: String) async throws -> [UInt8] {
        let response = try await self.inner.response(to: request, from: uri)
        self.kept.withLockedValue { $0.append(response) }
        return response
    }
}
