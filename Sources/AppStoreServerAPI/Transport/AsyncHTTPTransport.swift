public import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import _ReceiptKitShared

/// ``HTTPTransport`` over AsyncHTTPClient: redirects are not followed, a refused connection fails at once (the retry
/// policy decides what happens next), and a body over the bound is refused while it streams.
public struct AsyncHTTPTransport: HTTPTransport {
    private let client: HTTPClient

    /// A transport on the process-wide client this module keeps (never shut down, it lives as long as the process).
    public init() {
        self.client = sharedClient
    }

    /// A transport on your client; you shut it down.
    public init(client: HTTPClient) {
        self.client = client
    }

    /// A transport for many requests at once to one host (notifications sent on to a target, up to its
    /// `max_in_flight`), on a second process-wide client whose pool opens a connection for each request waiting for
    /// one, up to 1,024 a host. AsyncHTTPClient's default opens 8 and queues the rest, so with a slow host the queued
    /// requests' time limits ran out before they were sent.
    public static var forManyRequestsToOneHost: AsyncHTTPTransport {
        AsyncHTTPTransport(client: wideClient)
    }

    /// Sends `request`; `timeout` bounds the whole exchange — connection, head and body — not only the head.
    public func send(
        _ request: HTTPTransportRequest,
        timeout: Duration,
        maximumResponseSize: Int
    ) async throws(HTTPTransportFailure)
        -> HTTPTransportResponse
    {
        var message = HTTPClientRequest(url: request.url)
        message.method = HTTPMethod(rawValue: request.method)
        for header in request.headers { message.headers.add(name: header.name, value: header.value) }
        if let body = request.body { message.body = .bytes(ByteBuffer(bytes: body)) }
        let prepared = message
        let client = self.client
        let limit = max(0, maximumResponseSize)
        // AsyncHTTPClient's own deadline stops at the head: the whole exchange races a timer.
        let outcome = await TimeLimited.run(timeout) {
            await Self.exchange(client, prepared, timeout: timeout, maximumResponseSize: limit)
        }
        switch outcome {
        case .finished(let result): return try result.get()
        case .timedOut: throw HTTPTransportFailure(.timeout, "no complete answer within \(timeout)")
        case .cancelled: throw HTTPTransportFailure(.cancelled, "the request was cancelled")
        }
    }

    /// One exchange, head and body, with its failure classified.
    private static func exchange(
        _ client: HTTPClient,
        _ message: HTTPClientRequest,
        timeout: Duration,
        maximumResponseSize: Int
    ) async -> Result<HTTPTransportResponse, HTTPTransportFailure> {
        do {
            let answer = try await client.execute(message, timeout: TimeAmount(timeout))
            let body: ByteBuffer
            do {
                body = try await answer.body.collect(upTo: maximumResponseSize)
            } catch let error as NIOTooManyBytesError {
                return .failure(
                    HTTPTransportFailure(
                        .responseTooLarge, "the body is over \(maximumResponseSize) bytes (\(error))",
                        status: Int(answer.status.code))
                )
            }
            return .success(
                HTTPTransportResponse(
                    status: Int(answer.status.code),
                    headers: answer.headers.map { (name: $0.name, value: $0.value) },
                    body: Array(body.readableBytesView)
                )
            )
        } catch let error as HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                return .failure(HTTPTransportFailure(.timeout, "no answer within \(timeout)"))
            case .cancelled:
                return .failure(HTTPTransportFailure(.cancelled, "the request was cancelled"))
            case .invalidURL, .emptyHost, .emptyScheme:
                return .failure(HTTPTransportFailure(.invalidRequest, "the URL is not usable (\(error))"))
            default:
                return .failure(HTTPTransportFailure(.connection, "\(error)"))
            }
        } catch is CancellationError {
            return .failure(HTTPTransportFailure(.cancelled, "the request was cancelled"))
        } catch {
            return .failure(HTTPTransportFailure(.connection, "\(error)"))
        }
    }
}

/// The configuration of the process-wide clients: redirects not followed, a refused connection failing at once.
private func clientConfiguration(connectionsPerHost: Int) -> HTTPClient.Configuration {
    var configuration = HTTPClient.Configuration.singletonConfiguration
    configuration.connectionPool.retryConnectionEstablishment = false
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connectionsPerHost
    configuration.redirectConfiguration = .disallow
    return configuration
}

/// One client for every App Store Server API exchange of the process that does not bring its own.
private let sharedClient = HTTPClient(
    eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration(connectionsPerHost: 8))

/// One client for ``AsyncHTTPTransport/forManyRequestsToOneHost``.
private let wideClient = HTTPClient(
    eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration(connectionsPerHost: 1_024))
