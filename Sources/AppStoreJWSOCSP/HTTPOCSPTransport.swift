public import AppStoreJWS
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import _ReceiptKitShared

/// OCSP over HTTP (RFC 6960 appendix A) with an AsyncHTTPClient client of its own: what `receiptkit serve
/// --check-revocation` and `receiptkit jws verify --check-revocation` use to ask Apple's responders.
///
/// Each request is a `POST` of the DER request (`Content-Type: application/ocsp-request`) to the responder the
/// certificate names; only `http` and `https` responders are asked, redirects are not followed, and a refused
/// connection fails at once (AsyncHTTPClient would otherwise retry it until the timeout). Anything but a `200` with a body of at most
/// ``maximumResponseSize`` bytes, all of it within ``timeout``, throws ``Failure`` (a transport error too, named) — which the verifier reports as the retryable
/// `revocation_check_unavailable`.
///
/// ```swift
/// var policy = JWSVerificationPolicy(bundleIdentifier: "com.example.app")
/// policy.revocationCheck = JWSRevocationCheck(transport: HTTPOCSPTransport())
/// ```
public struct HTTPOCSPTransport: OCSPTransport {
    /// Why a responder gave no usable answer.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// How long one exchange may take, connection included. Default: 5 seconds.
    public var timeout: Duration
    /// The largest response body accepted (Apple's are about 2 KB). Default: 64 KiB.
    public var maximumResponseSize: Int

    /// Creates a transport.
    /// - Parameters:
    ///   - timeout: How long one exchange may take.
    ///   - maximumResponseSize: The largest response body accepted, in bytes.
    public init(timeout: Duration = .seconds(5), maximumResponseSize: Int = 64 * 1024) {
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
    }

    /// POSTs `request` to `uri` and returns the response body.
    public func response(to request: [UInt8], from uri: String) async throws -> [UInt8] {
        let scheme = uri.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw Failure(description: "OCSP responder \(uri) is not an http or https URL")
        }
        var message = HTTPClientRequest(url: uri)
        message.method = .POST
        message.headers.add(name: "Content-Type", value: "application/ocsp-request")
        message.headers.add(name: "Accept", value: "application/ocsp-response")
        message.body = .bytes(ByteBuffer(bytes: request))
        let prepared = message
        let (timeout, limit) = (self.timeout, max(0, self.maximumResponseSize))
        // AsyncHTTPClient's own deadline stops at the head: the whole exchange, body included, races a timer.
        let outcome = await TimeLimited.run(timeout) { () async -> Result<[UInt8], Failure> in
            do {
                let answer = try await ocspClient.execute(prepared, timeout: TimeAmount(timeout))
                guard answer.status == .ok else {
                    return .failure(Failure(description: "OCSP responder \(uri) answered HTTP \(answer.status.code)"))
                }
                let body = try await answer.body.collect(upTo: limit)
                return .success(Array(body.readableBytesView))
            } catch let failure as Failure {
                return .failure(failure)
            } catch is NIOTooManyBytesError {
                return .failure(Failure(description: "OCSP responder \(uri) answered with more than \(limit) bytes"))
            } catch {
                // The transport's own error (a refused connection, a TLS failure), said as one of ours.
                return .failure(Failure(description: "OCSP responder \(uri): \(error)"))
            }
        }
        switch outcome {
        case .finished(let result): return try result.get()
        case .timedOut: throw Failure(description: "OCSP responder \(uri) gave no complete answer within \(timeout)")
        case .cancelled: throw CancellationError()
        }
    }
}

/// One client for every OCSP exchange of the process (it lives as long as the process, so it is never shut down).
private let ocspClient: HTTPClient = {
    var configuration = HTTPClient.Configuration.singletonConfiguration
    configuration.connectionPool.retryConnectionEstablishment = false
    configuration.redirectConfiguration = .disallow
    return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
}()
