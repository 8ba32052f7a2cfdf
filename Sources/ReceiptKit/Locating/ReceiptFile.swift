import Foundation

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
    /// - Throws: ``ReceiptError`` with ``ReceiptError/Code/unreadableFile`` when the file is missing, a folder,
    ///   unreadable or larger than `maximumSize`.
    public static func contents(atPath path: String, maximumSize: Int = Self.maximumFileSize) throws(ReceiptError) -> [UInt8] {
        if path == "-" {
            return try Self.read(FileHandle.standardInput, name: "standard input", limit: maximumSize)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ReceiptError(.unreadableFile, "\(path): no such file")
        }
        guard !isDirectory.boolValue else {
            throw ReceiptError(.unreadableFile, "\(path): is a directory")
        }
        // A regular file's size is known up front: refuse it before reading anything.
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maximumSize {
            throw ReceiptError(.unreadableFile, "\(path): larger than \(maximumSize) bytes")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ReceiptError(.unreadableFile, "\(path): cannot be read")
        }
        defer { try? handle.close() }
        return try Self.read(handle, name: path, limit: maximumSize)
    }

    private static func read(_ handle: FileHandle, name: String, limit: Int) throws(ReceiptError) -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 20)
            } catch {
                throw ReceiptError(.unreadableFile, "\(name): cannot be read: \(error)")
            }
            guard let chunk, !chunk.isEmpty else { return bytes }
            guard chunk.count <= limit - bytes.count else {
                throw ReceiptError(.unreadableFile, "\(name): larger than \(limit) bytes")
            }
            bytes.append(contentsOf: chunk)
        }
    }
}
