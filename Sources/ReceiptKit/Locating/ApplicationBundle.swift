import Foundation

/// A macOS application bundle on disk: its Mac App Store receipt and the identity the receipt must match.
///
/// Works on any platform, so a server or CI job can check a built `.app`:
/// `Contents/_MASReceipt/receipt` is the receipt, `Contents/Info.plist` (XML or binary) gives
/// `CFBundleIdentifier` and `CFBundleShortVersionString` — the version macOS receipts carry.
public struct ApplicationBundle: Sendable {
    /// The bundle's folder.
    public let path: String
    /// `CFBundleIdentifier` from `Info.plist`.
    public let bundleIdentifier: String
    /// `CFBundleShortVersionString` from `Info.plist`.
    public let shortVersion: String

    /// The path of the bundle's receipt, which may not exist (an app run from Xcode has none).
    public var receiptPath: String { self.path + "/Contents/_MASReceipt/receipt" }

    /// Reads the bundle's `Info.plist`.
    /// - Throws: ``ReceiptFileError`` with ``ReceiptFileError/Code/unreadableFile`` or ``ReceiptFileError/Code/invalidBundle``.
    public init(path: String) throws(ReceiptFileError) {
        let plistBytes = try ReceiptFile.contents(atPath: path + "/Contents/Info.plist")
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: Data(plistBytes), options: [], format: nil)
        } catch {
            throw ReceiptFileError(.invalidBundle, "\(path)/Contents/Info.plist is not a property list")
        }
        guard let dictionary = plist as? [String: Any],
            let identifier = dictionary["CFBundleIdentifier"] as? String,
            let version = dictionary["CFBundleShortVersionString"] as? String
        else {
            throw ReceiptFileError(
                .invalidBundle,
                "\(path)/Contents/Info.plist lacks CFBundleIdentifier or CFBundleShortVersionString"
            )
        }
        self.path = path
        self.bundleIdentifier = identifier
        self.shortVersion = version
    }

    /// The receipt's bytes.
    /// - Throws: ``ReceiptFileError`` with ``ReceiptFileError/Code/unreadableFile`` when the bundle has no receipt.
    public func receipt() throws(ReceiptFileError) -> [UInt8] {
        try ReceiptFile.contents(atPath: self.receiptPath)
    }
}
