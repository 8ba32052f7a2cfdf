import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Standard output through a 64 KiB buffer written with `write(2)`: a batch prints hundreds of thousands of lines,
/// and one system call per line (or `print`'s locking per call) would cost more than a receipt's JSON. On a terminal
/// every line is written at once.
struct OutputBuffer {
    private var bytes: [UInt8] = []
    private let flushesEachLine: Bool
    private let descriptor: Int32
    /// The `errno` of the first failed write; later output is dropped.
    private(set) var failure: Int32?

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
        self.flushesEachLine = isatty(descriptor) != 0
        self.bytes.reserveCapacity(80 * 1024)
    }

    mutating func append(_ line: [UInt8]) {
        self.bytes.append(contentsOf: line)
        if self.flushesEachLine || self.bytes.count >= 64 * 1024 { self.flush() }
    }

    mutating func flush() {
        guard self.failure == nil else {
            self.bytes.removeAll(keepingCapacity: true)
            return
        }
        var written = 0
        while written < self.bytes.count {
            let count = self.bytes.withUnsafeBytes { buffer in
                write(self.descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                self.failure = errno
                break
            }
            written += count
        }
        self.bytes.removeAll(keepingCapacity: true)
    }
}
