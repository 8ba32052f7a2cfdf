import Foundation
import NIOConcurrencyHelpers

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes a batch's output chunks to a file descriptor with `write(2)`, one writer at a time, in the order writers
/// reserved it.
///
/// A worker that took a chunk from ``OutputBuffer`` calls ``reserve()`` while it still holds the lock that guards the
/// buffer (so the order of chunks is the order they were taken), lets go of that lock, and then calls
/// ``write(reserved:)``: the other workers go on validating while it writes (measured: a write under the batch's lock
/// held the other worker up for a noticeable part of the run; `Benchmarks/README.md`, Measurements).
final class OutputSink: @unchecked Sendable {
    private let lock = NIOLock()
    private let descriptor: Int32
    /// The `errno` of the first failed write; later output is dropped. Guarded by `lock`.
    private var failure: Int32?

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
    }

    /// Whether the descriptor is a terminal (where every line is written at once).
    var isTerminal: Bool { isatty(self.descriptor) != 0 }

    /// Takes the right to write next; the caller must call ``write(reserved:)`` on the same thread.
    func reserve() {
        self.lock.lock()
    }

    /// Writes `chunk` whole (or records why it could not) and gives up the right taken by ``reserve()``.
    func write(reserved chunk: [UInt8]) {
        defer { self.lock.unlock() }
        guard self.failure == nil else { return }
        var written = 0
        while written < chunk.count {
            let count = chunk.withUnsafeBytes { buffer in
                systemWrite(self.descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                self.failure = errno
                return
            }
            written += count
        }
    }

    /// The `errno` of the first failed write, if any.
    var writeFailure: Int32? {
        self.lock.withLock { self.failure }
    }
}

/// `write(2)` under a name the sink's own `write(reserved:)` does not shadow.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
