public import AsyncHTTPClient
import NIOCore
import NIOHTTP1

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
        do {
            let answer = try await self.client.execute(message, timeout: TimeAmount(timeout))
            let body: ByteBuffer
            do {
                body = try await answer.body.collect(upTo: max(0, maximumResponseSize))
            } catch let error as NIOTooManyBytesError {
                throw HTTPTransportFailure(
                    .responseTooLarge,
                    "the body is over \(maximumResponseSize) bytes (\(error))"
                )
            }
            return HTTPTransportResponse(
                status: Int(answer.status.code),
                headers: answer.headers.map { (name: $0.name, value: $0.value) },
                body: Array(body.readableBytesView)
            )
        } catch let failure as HTTPTransportFailure {
            throw failure
        } catch let error as HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                throw HTTPTransportFailure(.timeout, "no answer within \(timeout)")
            case .cancelled:
                throw HTTPTransportFailure(.cancelled, "the request was cancelled")
            case .invalidURL, .emptyHost, .emptyScheme:
                throw HTTPTransportFailure(.invalidRequest, "the URL is not usable (\(error))")
            default:
                throw HTTPTransportFailure(.connection, "\(error)")
            }
        } catch is CancellationError {
            throw HTTPTransportFailure(.cancelled, "the request was cancelled")
        } catch {
            throw HTTPTransportFailure(.connection, "\(error)")
        }
    }
}

/// One client for every App Store Server API exchange of the process that does not bring its own.
private let sharedClient: HTTPClient = {
    var configuration = HTTPClient.Configuration.singletonConfiguration
    configuration.connectionPool.retryConnectionEstablishment = false
    configuration.redirectConfiguration = .disallow
    return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
}()
