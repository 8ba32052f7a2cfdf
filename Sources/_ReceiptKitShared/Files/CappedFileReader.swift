#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one reader of files a caller names (receipts, certificates, settings, `.p8` keys): capped, so a hostile path
/// — a device, a huge file, an endless pipe — cannot exhaust memory, and with a variant that reads regular files
/// only and never blocks on a FIFO. Each module wraps its failure in its own error type.
package enum CappedFileReader {
    /// Why a file was not read: `PATH: no such file`, `PATH: larger than N bytes`, … (the path first).
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let reason: String
        init(_ reason: String) { self.reason = reason }
        package var description: String { self.reason }
    }

    /// The bytes of the file at `path`, whatever it is (FIFOs and devices read in chunks under the cap); `-` reads
    /// standard input.
    package static func contents(atPath path: String, maximumSize: Int) throws(Failure) -> [UInt8] {
        if path == "-" {
            return try Self.readChunks(STDIN_FILENO, name: "standard input", limit: maximumSize)
        }
        let (descriptor, status) = try Self.openFile(path, nonBlocking: false)
        defer { close(descriptor) }
        return try Self.readOpened(descriptor, status, name: path, limit: maximumSize)
    }

    /// The bytes of `path` when it is (or links to) a regular file; `nil` for a directory, FIFO, device or socket.
    /// Opening does not block on a FIFO.
    package static func regularFileContents(atPath path: String, maximumSize: Int) throws(Failure) -> [UInt8]? {
        let (descriptor, status) = try Self.openFile(path, nonBlocking: true)
        defer { close(descriptor) }
        guard status.kind == .regular else { return nil }
        return try Self.readOpened(descriptor, status, name: path, limit: maximumSize)
    }

    /// Opens `path` and stats the descriptor: no race between checking and reading, and three system calls in all
    /// for a small regular file (batch validation reads hundreds of thousands of them).
    private static func openFile(_ path: String, nonBlocking: Bool) throws(Failure) -> (Int32, FileStatus) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0))
        guard descriptor >= 0 else { throw Self.error(errno, path: path) }
        guard let status = FileStatus(descriptor: descriptor) else {
            let failure = errno
            close(descriptor)
            throw Self.error(failure, path: path)
        }
        return (descriptor, status)
    }

    private static func readOpened(_ descriptor: Int32, _ status: FileStatus, name: String, limit: Int) throws(Failure) -> [UInt8] {
        switch status.kind {
        case .directory:
            throw Failure("\(name): is a directory")
        case .regular:
            // A regular file's size is known up front: refuse it before reading anything.
            guard status.size <= limit else {
                throw Failure("\(name): larger than \(limit) bytes")
            }
            return try Self.readRegular(descriptor, expectedSize: status.size, name: name, limit: limit)
        case .symbolicLink, .other:
            // FIFOs, character devices, sockets: no size to trust, read in chunks under the cap.
            return try Self.readChunks(descriptor, name: name, limit: limit)
        }
    }

    private static func error(_ number: Int32, path: String) -> Failure {
        switch number {
        case ENOENT, ENOTDIR: return Failure("\(path): no such file")
        case EISDIR: return Failure("\(path): is a directory")
        default: return Failure("\(path): cannot be read: \(String(cString: strerror(number)))")
        }
    }

    /// Reads a regular file of `expectedSize` bytes into one allocation, asking for one byte more to see the end; a
    /// file that grew meanwhile is read on in chunks, still under `limit`.
    private static func readRegular(_ descriptor: Int32, expectedSize: Int, name: String, limit: Int) throws(Failure) -> [UInt8] {
        var failure: Int32?
        var bytes = [UInt8](unsafeUninitializedCapacity: expectedSize + 1) { buffer, filled in
            while filled < buffer.count {
                let count = read(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
                if count < 0, errno == EINTR { continue }
                if count < 0 { failure = errno }
                if count <= 0 { return }
                filled += count
            }
        }
        if let failure { throw Self.error(failure, path: name) }
        // Shorter than announced (it shrank) or exactly as announced: what was read is the file.
        guard bytes.count > expectedSize else { return bytes }
        guard bytes.count <= limit else { throw Failure("\(name): larger than \(limit) bytes") }
        bytes += try Self.readChunks(descriptor, name: name, limit: limit, alreadyRead: bytes.count)
        return bytes
    }

    private static func readChunks(_ descriptor: Int32, name: String, limit: Int, alreadyRead: Int = 0) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress, buffer.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.error(errno, path: name)
            }
            if count == 0 { return bytes }
            guard count <= limit - alreadyRead - bytes.count else {
                throw Failure("\(name): larger than \(limit) bytes")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
