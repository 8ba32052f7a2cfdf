import _ReceiptKitShared

/// Reads receipt, certificate and property-list files with errors ReceiptKit can report.
public enum ReceiptFile {
    /// The largest file read, to keep a hostile path (a device, a huge file, an endless pipe) from exhausting
    /// memory: 64 MiB.
    public static let maximumFileSize = 64 * 1024 * 1024

    /// The bytes of the file at `path`; `-` reads standard input.
    ///
    /// Standard input, FIFOs and character devices obey the same cap as regular files: they are read in chunks and
    /// refused as soon as they exceed it, never buffered whole first.
    ///
    /// - Parameters:
    ///   - path: A file path, or `-` for standard input.
    ///   - maximumSize: The most bytes accepted; ``maximumFileSize`` by default.
    /// - Throws: ``ReceiptFileError`` with ``ReceiptFileError/Code/unreadableFile`` when the file is missing, a folder,
    ///   unreadable or larger than `maximumSize`.
    public static func contents(atPath path: String, maximumSize: Int = Self.maximumFileSize) throws(ReceiptFileError) -> [UInt8] {
        do {
            return try CappedFileReader.contents(atPath: path, maximumSize: maximumSize)
        } catch {
            throw ReceiptFileError(.unreadableFile, error.reason)
        }
    }

    /// The bytes of `path` when it is (or links to) a regular file; `nil` for a directory, FIFO, device or socket.
    /// Opening does not block on a FIFO. Batch sources use it for symbolic links found in directories.
    package static func regularFileContents(atPath path: String, maximumSize: Int) throws(ReceiptFileError) -> [UInt8]? {
        do {
            return try CappedFileReader.regularFileContents(atPath: path, maximumSize: maximumSize)
        } catch {
            throw ReceiptFileError(.unreadableFile, error.reason)
        }
    }
}
