import _ReceiptKitShared

/// Reads a `.p8` file under a size bound with the package's one capped reader: only a regular file (or a link to
/// one) is read, and never more than one byte past the bound, so a FIFO, a device such as `/dev/zero` or a huge file
/// cannot block or exhaust memory.
enum PrivateKeyFile {
    /// The bytes of the regular file at `path`.
    /// - Throws: ``AppStoreServerAPIError/Code/invalidPrivateKey`` when it cannot be opened, is not a regular file,
    ///   or is over `maximumSize` bytes.
    static func contents(
        atPath path: String,
        maximumSize: Int = AppStoreServerAPIKey.maximumFileSize
    ) throws(AppStoreServerAPIError) -> [UInt8] {
        let bytes: [UInt8]?
        do {
            bytes = try CappedFileReader.regularFileContents(atPath: path, maximumSize: maximumSize)
        } catch {
            throw AppStoreServerAPIError(.invalidPrivateKey, "the private key file \(error.reason)")
        }
        guard let bytes else {
            throw AppStoreServerAPIError(.invalidPrivateKey, "the private key file \(path) is not a regular file")
        }
        return bytes
    }
}
