/// The lines a batch has finished and not yet written, gathered into chunks of about 64 KiB: a batch prints hundreds
/// of thousands of lines, and one system call per line (or `print`'s locking per call) would cost more than a
/// receipt's JSON. On a terminal every line is a chunk of its own.
///
/// The buffer only gathers; ``OutputSink`` writes, outside the lock that guards the buffer, so that a worker
/// writing a chunk does not hold up the others.
struct OutputBuffer {
    private var bytes: [UInt8] = []
    private let chunkSize: Int

    /// - Parameter flushesEachLine: Whether every line is a chunk (standard output is a terminal).
    init(flushesEachLine: Bool) {
        self.chunkSize = flushesEachLine ? 1 : 64 * 1024
        self.bytes.reserveCapacity(80 * 1024)
    }

    /// Appends a line; returns the gathered bytes when they make a chunk to write.
    mutating func append(_ line: [UInt8]) -> [UInt8]? {
        self.bytes.append(contentsOf: line)
        return self.bytes.count >= self.chunkSize ? self.take() : nil
    }

    /// Everything gathered and not yet taken (possibly empty).
    mutating func take() -> [UInt8] {
        var taken: [UInt8] = []
        taken.reserveCapacity(self.chunkSize == 1 ? 0 : 80 * 1024)
        swap(&taken, &self.bytes)
        return taken
    }
}
