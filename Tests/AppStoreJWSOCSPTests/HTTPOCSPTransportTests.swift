import AppStoreJWSOCSP
import LoopbackHTTPSupport
import NIOConcurrencyHelpers
import NIOHTTP1
import Testing

/// The OCSP transport against a scripted HTTP/1.1 server on 127.0.0.1: the request it sends, the answers it takes,
/// and every way a responder can fail to give one (each a `Failure` or a transport error, which the verifier reports
/// as the retryable `revocation_check_unavailable`).
@Suite("HTTP OCSP transport")
struct HTTPOCSPTransportTests {
    /// Bytes no text transport would carry unchanged.
    static let request: [UInt8] = [0x30, 0x00, 0xFF, 0x0D, 0x0A, 0x80]
    static let response: [UInt8] = [0x30, 0x03, 0x0A, 0x01, 0x00, 0xFF, 0x00]

    @Test("POSTs the DER request with OCSP's media types and returns the body byte for byte")
    func exchange() async throws {
        let handler = ScriptedHTTPHandler([(status: 200, headers: [("Content-Type", "application/ocsp-response")], body: Self.response)])
        try await Loopback.withServer(handler) { port in
            let body = try await HTTPOCSPTransport().response(to: Self.request, from: "http://127.0.0.1:\(port)/ocsp03-wwdrg601")
            #expect(body == Self.response)
        }
        let head = try #require(handler.heads.withLockedValue { $0 }.first)
        #expect(head.method == .POST)
        #expect(head.uri == "/ocsp03-wwdrg601")
        #expect(head.headers.first(name: "Content-Type") == "application/ocsp-request")
        #expect(head.headers.first(name: "Accept") == "application/ocsp-response")
        #expect(handler.bodies.withLockedValue { $0 } == [Self.request])
    }

    @Test("a status other than 200 is a Failure naming it", arguments: [404, 500, 503])
    func notOK(status: Int) async throws {
        let handler = ScriptedHTTPHandler([(status: status, headers: [], body: Self.response)])
        try await Loopback.withServer(handler) { port in
            let failure = await #expect(throws: HTTPOCSPTransport.Failure.self) {
                try await HTTPOCSPTransport().response(to: Self.request, from: "http://127.0.0.1:\(port)/")
            }
            #expect(failure?.description.hasSuffix("answered HTTP \(status)") == true)
        }
    }

    @Test("a redirect is not followed: one request, and a Failure naming the status")
    func redirectIsNotFollowed() async throws {
        let handler = ScriptedHTTPHandler([
            (status: 302, headers: [("Location", "http://127.0.0.1:1/elsewhere")], body: []),
            (status: 200, headers: [], body: Self.response),
        ])
        try await Loopback.withServer(handler) { port in
            let failure = await #expect(throws: HTTPOCSPTransport.Failure.self) {
                try await HTTPOCSPTransport().response(to: Self.request, from: "http://127.0.0.1:\(port)/")
            }
            #expect(failure?.description.hasSuffix("answered HTTP 302") == true)
        }
        #expect(handler.heads.withLockedValue { $0.count } == 1)
    }

    @Test("a body over maximumResponseSize is refused; one at the bound is taken")
    func responseBound() async throws {
        let big = [UInt8](repeating: 0x41, count: 2_048)
        let handler = ScriptedHTTPHandler([
            (status: 200, headers: [], body: big),
            (status: 200, headers: [], body: Array(big.prefix(1_024))),
        ])
        try await Loopback.withServer(handler) { port in
            let transport = HTTPOCSPTransport(maximumResponseSize: 1_024)
            let failure = await #expect(throws: HTTPOCSPTransport.Failure.self) {
                try await transport.response(to: Self.request, from: "http://127.0.0.1:\(port)/")
            }
            #expect(failure?.description.hasSuffix("answered with more than 1024 bytes") == true)
            let atBound = try await transport.response(to: Self.request, from: "http://127.0.0.1:\(port)/")
            #expect(atBound.count == 1_024)
        }
    }

    @Test("a responder that is not http or https is never asked", arguments: ["ldap://ocsp.apple.com/", "file:///etc/passwd", "ocsp.apple.com"])
    func schemeRefused(uri: String) async {
        let failure = await #expect(throws: HTTPOCSPTransport.Failure.self) {
            try await HTTPOCSPTransport().response(to: Self.request, from: uri)
        }
        #expect(failure?.description.contains("is not an http or https URL") == true)
    }

    @Test("a body that never arrives ends at the timeout", .timeLimit(.minutes(1)))
    func stalledBody() async throws {
        try await Loopback.withServer(StallingHTTPHandler()) { port in
            let failure = await #expect(throws: HTTPOCSPTransport.Failure.self) {
                try await HTTPOCSPTransport(timeout: .milliseconds(300)).response(
                    to: Self.request, from: "http://127.0.0.1:\(port)/")
            }
            #expect(failure?.description.contains("gave no complete answer within") == true, "\(failure?.description ?? "")")
        }
    }

    /// With a timeout longer than the test's time limit, only failing at once (not retrying the connection until the
    /// timeout) passes.
    @Test("a refused connection fails at once, not at the timeout", .timeLimit(.minutes(1)))
    func refused() async throws {
        try await Loopback.withRefusingPort { port in
            await #expect(throws: HTTPOCSPTransport.Failure.self) {
                try await HTTPOCSPTransport(timeout: .seconds(300)).response(
                    to: Self.request, from: "http://127.0.0.1:\(port)/")
            }
        }
    }
}
