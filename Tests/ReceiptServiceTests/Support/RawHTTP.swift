import Foundation

/// A bare TCP client for requests no HTTP client will send: a body shorter than its Content-Length, a
/// Content-Length far beyond what is sent. Built on ``RawConnection``.
enum RawHTTP {
    /// Sends `head` and `body` to 127.0.0.1:`port`, then reads until the server closes or `timeout` passes.
    static func exchange(
        port: Int, head: String, body: [UInt8], timeout: TimeInterval, from source: String = "127.0.0.1"
    ) async throws -> String {
        let connection = try RawConnection(port: port, from: source)
        connection.send(Array(head.utf8) + body)
        return await connection.read(timeout: timeout).text
    }
}
