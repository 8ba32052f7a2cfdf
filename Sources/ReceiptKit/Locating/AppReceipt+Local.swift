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
    /// - Throws: ``ReceiptError`` with ``ReceiptError/Code/unreadableFile`` when there is no receipt, or any
    ///   decoding error.
    public static func local(configuration: ReceiptDecodingConfiguration = .default) throws(ReceiptError) -> AppReceipt {
        guard let url = Self.localReceiptURL else {
            throw ReceiptError(.unreadableFile, "the app has no App Store receipt")
        }
        return try AppReceipt(berEncoded: ReceiptFile.contents(atPath: url.path), configuration: configuration)
    }
}
#endif
