import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads records separated by one byte (a newline, or NUL for `find -print0`) from a file descriptor, through a
/// fixed buffer: memory stays the size of the longest record, however many records there are.
///
/// A record longer than `maximumLength` is skipped up to its delimiter and reported as too long, so one hostile
/// line cannot grow the buffer without bound.
final class DelimitedReader {
    enum Record {
        case record([UInt8], number: Int)
        case tooLong(number: Int)
        case failed(Int32)
    }

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let delimiter: UInt8
    /// The longest record returned; longer ones come back as `.tooLong`.
    let maximumLength: Int
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEnd = false
    private var number = 0

    init(descriptor: Int32, ownsDescriptor: Bool, delimiter: UInt8, maximumLength: Int) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.delimiter = delimiter
        self.maximumLength = maximumLength
        self.buffer = [UInt8](repeating: 0, count: 64 * 1024)
    }

    deinit {
        if self.ownsDescriptor { close(self.descriptor) }
    }

    /// The next record without its delimiter (and, for newline-separated records, without a trailing `\r`), or
    /// `nil` at the end. A last record without a delimiter counts.
    func next() -> Record? {
        var overflowed = false
        while true {
            if let index = self.buffer[self.start..<self.end].firstIndex(of: self.delimiter) {
                self.number += 1
                defer { self.start = index + 1 }
                if overflowed { return .tooLong(number: self.number) }
                return .record(self.trimmed(self.buffer[self.start..<index]), number: self.number)
            }
            if self.atEnd {
                guard self.start < self.end || overflowed else { return nil }
                self.number += 1
                defer { self.start = self.end }
                if overflowed { return .tooLong(number: self.number) }
                return .record(self.trimmed(self.buffer[self.start..<self.end]), number: self.number)
            }
            if self.end - self.start >= self.maximumLength {
                // Drop what is buffered of an over-long record and keep reading to its delimiter.
                overflowed = true
                self.start = 0
                self.end = 0
            }
            if let failure = self.fill() { return .failed(failure) }
        }
    }

    /// Reads more bytes after compacting (and, up to the record limit, growing) the buffer; an errno on failure.
    private func fill() -> Int32? {
        if self.start > 0 {
            let count = self.end - self.start
            if count > 0 {
                let start = self.start
                self.buffer.withUnsafeMutableBytes { pointer in
                    guard let base = pointer.baseAddress else { return }
                    _ = memmove(base, base + start, count)
                }
            }
            self.start = 0
            self.end = count
        }
        if self.end == self.buffer.count {
            let grown = min(self.buffer.count * 2, self.maximumLength + 1)
            self.buffer.append(contentsOf: repeatElement(0, count: max(grown - self.buffer.count, 4096)))
        }
        while true {
            let count = self.buffer.withUnsafeMutableBytes { pointer in
                read(self.descriptor, pointer.baseAddress.map { $0 + self.end }, pointer.count - self.end)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if count == 0 { self.atEnd = true }
            self.end += count
            return nil
        }
    }

    private func trimmed(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        if self.delimiter == UInt8(ascii: "\n"), bytes.last == UInt8(ascii: "\r") {
            return Array(bytes.dropLast())
        }
        return Array(bytes)
    }
}
