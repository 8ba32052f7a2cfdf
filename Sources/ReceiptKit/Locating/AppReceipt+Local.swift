#if canImport(Darwin)
public import Foundation

extension AppReceipt {
    /// The path of the running app's receipt (`Bundle.main.appStoreReceiptURL`), or `nil` when it has none.
    ///
    /// Apple platforms only. A missing receipt is normal in development and after a fresh install from TestFlight;
    /// on macOS, exit with status 173 (``ReceiptStartupCheck``) to have the App Store fetch one.
    public static var localReceiptURL: URL? {
        guard let url = Bundle.main.appStoreReceiptURL, FileManager.default.fileExists(atPath: url.path) else {
            return nil
        }
        return url
    }

    /// The running app's receipt, decoded (not validated).
    /// - Throws: ``ReceiptStartupCheck/Failure/unreadable(_:)`` when there is no receipt or it cannot be read,
    ///   ``ReceiptStartupCheck/Failure/malformed(_:)`` when it does not decode.
    public static func local(
        configuration: ReceiptDecodingConfiguration = .default
    ) throws(ReceiptStartupCheck.Failure) -> AppReceipt {
        guard let url = Self.localReceiptURL else {
            throw .unreadable(ReceiptFileError(.unreadableFile, "the app has no App Store receipt"))
        }
        let bytes: [UInt8]
        do { bytes = try ReceiptFile.contents(atPath: url.path) } catch { throw .unreadable(error) }
        do { return try AppReceipt(berEncoded: bytes, configuration: configuration) } catch { throw .malformed(error) }
    }
}
#endif
