import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private func sendRaw(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL))
}
#else
private func sendRaw(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    Darwin.send(fd, bytes, count, 0)
}
#endif

/// A TCP connection to 127.0.0.1 kept open across calls, for clients that stall: a slow header, a body that
/// stops half-way, a connection that sends nothing. Blocking calls, each run on a thread of its own.
final class RawConnection: @unchecked Sendable {
    struct Failure: Error {}
    private let fd: Int32

    /// Connects from `source` (another loopback address, `127.0.0.2`, is another peer to the server; a refused or
    /// reset connection throws), with a receive buffer of `receiveBuffer` bytes when given (a client slow to read).
    init(port: Int, from source: String = "127.0.0.1", receiveBuffer: Int? = nil) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure() }
        if let receiveBuffer {
            var size = Int32(receiveBuffer)
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(fd)
            throw Failure()
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure()
        }
        self.fd = fd
    }

    deinit { close(self.fd) }

    /// Sends all of `bytes`; `false` when the server has closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { sendRaw(self.fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { self.send(Array(text.utf8)) }

    /// ``send(_:)-([UInt8])`` on a thread of its own: a send the server stops reading blocks until it closes, and
    /// must not hold one of the few threads the service in the same process needs to read it.
    @discardableResult
    func sendAside(_ bytes: [UInt8]) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: self.send(bytes))
            }
        }
    }

    /// What the server sends within `timeout`, up to its closing the connection: `closed` is true when it did.
    func read(timeout: TimeInterval) async -> (text: String, closed: Bool) {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: self.blockingRead(timeout: timeout))
            }
        }
    }

    /// One whole response (its head, and a body of its `Content-Length`), or what came within `timeout`: for a
    /// keep-alive connection, whose close would never end ``read(timeout:)`` early.
    func readResponse(timeout: TimeInterval) async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: self.blockingRead(timeout: timeout, untilResponse: true).text)
            }
        }
    }

    /// Whether `bytes` hold a whole response: a head, and as many body bytes as it declares.
    private static func isWholeResponse(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return text.utf8.count - text[..<end.upperBound].utf8.count >= length
    }

    private func blockingRead(timeout: TimeInterval, untilResponse: Bool = false) -> (text: String, closed: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return (String(decoding: response, as: UTF8.self), false) }
            var descriptor = pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(1, left * 1000)))
            guard ready > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(self.fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return (String(decoding: response, as: UTF8.self), true) }
            response += buffer[0..<n]
            if untilResponse, Self.isWholeResponse(response) { return (String(decoding: response, as: UTF8.self), false) }
        }
    }
}
