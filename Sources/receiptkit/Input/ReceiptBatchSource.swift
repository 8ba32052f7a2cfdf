import Foundation
import ReceiptKit
import _ReceiptKitShared

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A stream of receipt inputs for batch validation: files, directory trees, lists of paths and base64 lines,
/// produced one at a time so memory does not grow with their number.
///
/// ```swift
/// let source = ReceiptBatchSource([.path("receipts/"), .pathList("-")])
/// while let item = source.next() {
///     guard let bytes = try item.contents() else { continue }   // a link to a directory
///     let result = try await validator.validate(ReceiptInput.normalized(bytes, base64: item.base64), now: now)
///     …
/// }
/// ```
///
/// A source holds open directory and file handles and is not thread-safe; several workers share one behind a lock.
/// Problems with one input (a directory that cannot be read, an over-long line) are items whose
/// ``Item/contents(maximumSize:)`` throws, so a batch reports them in place and goes on.
final class ReceiptBatchSource {
    /// Where inputs come from.
    enum Input: Sendable, Hashable {
        /// A receipt file, or a directory read recursively; `-` is standard input.
        case path(String)
        /// A file listing receipt paths, one per record (see ``Options/pathSeparator``); `-` is standard input.
        case pathList(String)
        /// A file of base64 receipts, one per line; `-` is standard input. Blank lines are skipped.
        case base64Lines(String)
    }

    /// How inputs are found and split.
    struct Options: Sendable {
        /// In directories, the file name extensions read (lowercased, without the dot), or `nil` for every regular
        /// file. Files named exactly `receipt` (as in `_MASReceipt/receipt`) are read either way. Paths given
        /// directly or listed are always read, whatever their name.
        var directoryExtensions: Set<String>?
        /// The byte between paths in a ``Input/pathList(_:)``: a newline (a trailing `\r` is dropped), or NUL for
        /// `find -print0`.
        var pathSeparator: UInt8
        /// The deepest directory nesting walked; deeper directories are reported as failed items.
        var maximumDepth: Int
        /// The longest line of a ``Input/base64Lines(_:)`` input; longer lines are failed items.
        var maximumLineLength: Int

        init(
            directoryExtensions: Set<String>? = ["der", "receipt", "b64", "base64"],
            pathSeparator: UInt8 = UInt8(ascii: "\n"),
            maximumDepth: Int = 64,
            maximumLineLength: Int = 24 * 1024 * 1024
        ) {
            self.directoryExtensions = directoryExtensions
            self.pathSeparator = pathSeparator
            self.maximumDepth = maximumDepth
            self.maximumLineLength = maximumLineLength
        }
    }

    /// One input.
    struct Item: Sendable {
        /// The file the input came from (`-` for standard input).
        var file: String
        /// For ``Input/base64Lines(_:)``, the 1-based line number; otherwise `nil`.
        var line: Int?
        /// Whether the content is base64 text (`true` for lines), or to be detected (`nil`).
        var base64: Bool?
        private var content: Content

        enum Content: Sendable {
            case file(String)
            /// A symbolic link found in a directory: read when it points at a regular file, skipped otherwise.
            case link(String)
            case bytes([UInt8])
            case failure(InputFailure)
        }

        /// About how many bytes the item holds in memory (a line's text, otherwise its path): what a queue of
        /// items read ahead counts against its bound.
        var heldByteCount: Int {
            switch self.content {
            case .bytes(let bytes): return bytes.count + self.file.utf8.count
            case .file(let path), .link(let path): return path.utf8.count + self.file.utf8.count
            case .failure: return self.file.utf8.count
            }
        }

        init(file: String, line: Int? = nil, base64: Bool? = nil, content: Content) {
            self.file = file
            self.line = line
            self.base64 = base64
            self.content = content
        }

        /// The input's bytes as they are (the file read now, or the line), or `nil` for an entry to skip: a
        /// symbolic link found in a directory that points at a directory or a special file.
        /// ``ReceiptInput/normalized(_:base64:configuration:)`` turns the bytes into a receipt's DER.
        ///
        /// - Throws: ``InputFailure`` with the code `unreadable_file` for a file, link or directory that cannot be
        ///   read, `input_too_large` for an over-long line.
        func contents(maximumSize: Int = ReceiptFile.maximumFileSize) throws(InputFailure) -> [UInt8]? {
            switch self.content {
            case .file(let path):
                do { return try ReceiptFile.contents(atPath: path, maximumSize: maximumSize) } catch { throw InputFailure(error) }
            case .link(let path):
                do { return try ReceiptFile.regularFileContents(atPath: path, maximumSize: maximumSize) } catch { throw InputFailure(error) }
            case .bytes(let bytes): return bytes
            case .failure(let error): throw error
            }
        }
    }

    /// The longest path accepted in a list: longer records are failed items, not paths.
    static let maximumPathLength = 64 * 1024

    private var inputs: ArraySlice<Input>
    private let options: Options
    private var walker: DirectoryWalker?
    private var reader: (input: Input, name: String, reader: DelimitedReader)?

    /// A source reading `inputs` in order.
    init(_ inputs: [Input], options: Options = Options()) {
        self.inputs = inputs[...]
        self.options = options
    }

    /// The next input, or `nil` when all are done.
    func next() -> Item? {
        while true {
            if let walker = self.walker {
                switch walker.next() {
                case .file(let path):
                    return Item(file: path, content: .file(path))
                case .link(let path):
                    return Item(file: path, content: .link(path))
                case .failed(let path, let reason):
                    return Item(file: path, content: .failure(.unreadable("\(path): \(reason)")))
                case nil:
                    self.walker = nil
                }
            }
            if let (input, name, reader) = self.reader {
                switch reader.next() {
                case .record(let bytes, let number):
                    if let item = self.item(for: input, name: name, record: bytes, number: number) { return item }
                    continue
                case .tooLong(let number):
                    let error = InputFailure.tooLarge("\(name): line \(number) is longer than \(reader.maximumLength) bytes")
                    return Item(file: name, line: number, base64: input.isBase64Lines ? true : nil, content: .failure(error))
                case .failed(let number):
                    self.reader = nil
                    let error = InputFailure.unreadable("\(name): cannot be read: \(String(cString: strerror(number)))")
                    return Item(file: name, content: .failure(error))
                case nil:
                    self.reader = nil
                }
            }
            guard let input = self.inputs.popFirst() else { return nil }
            if let item = self.start(input) { return item }
        }
    }

    /// Opens `input`; returns an item for a plain file (or an input that cannot be opened).
    private func start(_ input: Input) -> Item? {
        switch input {
        case .path(let path):
            if path != "-", FileStatus(path: path, followingLinks: true)?.kind == .directory {
                let extensions = self.options.directoryExtensions
                self.walker = DirectoryWalker(root: path, maximumDepth: self.options.maximumDepth) { name in
                    guard let extensions else { return true }
                    if name == "receipt" { return true }
                    guard let dot = name.lastIndex(of: ".") else { return false }
                    return extensions.contains(name[name.index(after: dot)...].lowercased())
                }
                return nil
            }
            return Item(file: path, content: .file(path))
        case .pathList(let path), .base64Lines(let path):
            let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let reason = errno == ENOENT ? "no such file" : "cannot be read: \(String(cString: strerror(errno)))"
                return Item(file: path, content: .failure(.unreadable("\(path): \(reason)")))
            }
            let lines = input.isBase64Lines
            self.reader = (
                input, path,
                DelimitedReader(
                    descriptor: descriptor,
                    ownsDescriptor: path != "-",
                    delimiter: lines ? UInt8(ascii: "\n") : self.options.pathSeparator,
                    maximumLength: lines ? self.options.maximumLineLength : Self.maximumPathLength
                )
            )
            return nil
        }
    }

    private func item(for input: Input, name: String, record: [UInt8], number: Int) -> Item? {
        if input.isBase64Lines {
            guard record.contains(where: { !ReceiptInput.isWhitespace($0) }) else { return nil }
            return Item(file: name, line: number, base64: true, content: .bytes(record))
        }
        // A listed path: blank records are skipped; everything else is a path, read whatever its name.
        guard !record.isEmpty else { return nil }
        let path = String(decoding: record, as: UTF8.self)
        return Item(file: path, content: .file(path))
    }
}

@available(*, unavailable)
extension ReceiptBatchSource: Sendable {}

extension ReceiptBatchSource.Input {
    fileprivate var isBase64Lines: Bool {
        if case .base64Lines = self { return true }
        return false
    }
}
