import Foundation
import _ReceiptKitShared

/// Reads a `.p8` file under a size bound: only a regular file (or a link to one) is read, and never more than one
/// byte past the bound, so a FIFO, a device such as `/dev/zero` or a huge file cannot block or exhaust memory.
enum PrivateKeyFile {
    /// The bytes of the regular file at `path`.
    /// - Throws: ``AppStoreServerAPIError/Code/invalidPrivateKey`` when it cannot be opened, is not a regular file,
    ///   or is over `maximumSize` bytes.
    static func contents(
        atPath path: String,
        maximumSize: Int = AppStoreServerAPIKey.maximumFileSize
    ) throws(AppStoreServerAPIError) -> Data {
        func refuse(_ why: String) -> AppStoreServerAPIError {
            AppStoreServerAPIError(.invalidPrivateKey, "the private key file \(path) \(why)")
        }
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw refuse("cannot be read") }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard let status = FileStatus(descriptor: descriptor) else { throw refuse("cannot be read") }
        guard status.kind == .regular else { throw refuse("is not a regular file") }
        let bytes: Data
        do {
            bytes = try handle.read(upToCount: maximumSize + 1) ?? Data()
        } catch {
            throw refuse("cannot be read")
        }
        guard bytes.count <= maximumSize else { throw refuse("is over \(maximumSize) bytes") }
        return bytes
    }
}
