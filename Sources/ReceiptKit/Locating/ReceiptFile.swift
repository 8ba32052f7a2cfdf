import Foundation

/// Reads receipt, certificate and property-list files with errors ReceiptKit can report.
public enum ReceiptFile {
    /// The largest file read, to keep a hostile path (a device, a huge file) from exhausting memory: 64 MiB.
    public static let maximumFileSize = 64 * 1024 * 1024

    /// The bytes of the file at `path`; `-` reads standard input.
    /// - Throws: ``ReceiptError`` with ``ReceiptError/Code/unreadableFile`` when the file is missing, a folder,
    ///   unreadable or larger than ``maximumFileSize``.
    public static func contents(atPath path: String) throws(ReceiptError) -> [UInt8] {
        if path == "-" {
            return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ReceiptError(.unreadableFile, "\(path): no such file")
        }
        guard !isDirectory.boolValue else {
            throw ReceiptError(.unreadableFile, "\(path): is a directory")
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
            size > Self.maximumFileSize
        {
            throw ReceiptError(.unreadableFile, "\(path): larger than \(Self.maximumFileSize) bytes")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReceiptError(.unreadableFile, "\(path): cannot be read")
        }
        return [UInt8](data)
    }
}
