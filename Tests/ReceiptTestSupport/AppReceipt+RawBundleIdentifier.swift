package import ReceiptKit

extension AppReceipt {
    /// The receipt as decoding returns it: with the raw bundle identifier bytes (a short UTF8String) filled in.
    package func withRawBundleIdentifier() -> AppReceipt {
        var copy = self
        copy.bundleIdentifierData =
            self.bundleIdentifierData ?? self.bundleIdentifier.map { Array([0x0C, UInt8(truncatingIfNeeded: $0.utf8.count)] + Array($0.utf8)) }
        return copy
    }
}
