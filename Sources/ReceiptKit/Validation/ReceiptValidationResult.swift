public import AppStorePKI
public import struct Foundation.Date
public import X509

/// The verdict on a well-formed receipt: valid, or the list of every check it failed.
public struct ReceiptValidationResult: Sendable {
    /// The decoded receipt (decoded whether or not it is valid; believe its contents only when ``isValid``).
    public let receipt: AppReceipt
    /// Every failed check, in the order the checks ran. Empty when the receipt is valid.
    public let failures: [ReceiptValidationFailure]
    /// The validated certificate path, signer first, when one was found.
    public let certificatePath: [Certificate]
    /// Which kind of anchor the validated path ended at; `nil` when no path was validated (untrusted chain, invalid
    /// signature, Xcode receipt not allowed).
    public let anchor: AppStoreTrustAnchor?
    /// The instant at which the chain was validated.
    public let trustEvaluationTime: Date

    /// Whether every check passed.
    public var isValid: Bool { self.failures.isEmpty }

    /// The receipt's environment: ``ReceiptEnvironment/xcode`` whenever the path ended at Xcode's StoreKit
    /// certificate, whatever the payload says (its key ships with Xcode, so its payload can claim anything);
    /// otherwise the environment the payload names, if any.
    public var environment: ReceiptEnvironment? {
        self.anchor == .xcodeStoreKitTesting ? .xcode : self.receipt.environment
    }

    /// The App Store environment the receipt belongs to, where verifyReceipt and the ledger file it: Xcode when the
    /// path ended at Xcode's certificate, the sandbox for the sandbox types, production otherwise (old production
    /// receipts carry no type).
    public var appStoreEnvironment: AppStoreEnvironment {
        self.environment?.appStoreEnvironment ?? .production
    }
}
