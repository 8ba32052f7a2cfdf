public import AppStorePKI

/// What a ``JWSVerifier`` requires of App Store signed data.
///
/// ```swift
/// let policy = JWSVerificationPolicy(bundleIdentifier: "com.example.app", appAppleID: 1234567890,
///                                    environment: .production)
/// ```
public struct JWSVerificationPolicy: Sendable {
    /// The trusted anchors. With `trustsAppleRoot` (the default, `AppStoreTrustAnchors.apple`) Apple Root
    /// CA - G3 is trusted through its pinned fingerprint (`PinnedCertificates.appleRootCAG3`): the copy
    /// in `x5c` is used only when its SHA-256 matches. Add your own test root for data minted by `ReceiptKitTesting`.
    public var anchors: AppStoreTrustAnchors
    /// Whether data signed on a developer's machine (environment `Xcode` or `LocalTesting`) is accepted: its `x5c`
    /// is one self-signed certificate, trusted as itself when it verifies its own signature and is a CA certificate
    /// (basic constraints `cA`, as Xcode's StoreKit certificates are; swift-certificates takes no other kind as a
    /// root). Never in production. Passing that certificate as an anchor accepts its data without this switch.
    /// Default `false`.
    public var allowsLocalEnvironments: Bool
    /// The bundle id the payload must carry, or `nil` to skip the check. Renewal info names none and passes; a
    /// payload of unknown kind (``AppStoreSignedDataKind/unknown``) is checked when it holds `bundleId`.
    public var bundleIdentifier: String?
    /// The app Apple ID an `AppTransaction` or a notification must carry when it is from Production, or `nil` to skip
    /// the check. Transactions and renewal info name none and pass; a payload of unknown kind is checked when it
    /// holds `appAppleId` and names Production.
    public var appAppleID: Int64?
    /// The environment the payload must come from, or `nil` to accept any that passes the other checks. A payload of
    /// unknown kind is checked on each of `environment` and `receiptType` it holds.
    public var environment: AppStoreEnvironment?
    /// When the certificate chain is validated; the payload's `signedDate` by default.
    public var trustEvaluationTime: TrustEvaluationTime
    /// Online revocation checking (OCSP) of a trusted path, at the verification's `now`; `nil` (the default) for
    /// none.
    public var revocationCheck: JWSRevocationCheck?

    public init(
        anchors: AppStoreTrustAnchors = .apple,
        allowsLocalEnvironments: Bool = false,
        bundleIdentifier: String? = nil,
        appAppleID: Int64? = nil,
        environment: AppStoreEnvironment? = nil,
        trustEvaluationTime: TrustEvaluationTime = .signedDate,
        revocationCheck: JWSRevocationCheck? = nil
    ) {
        self.anchors = anchors
        self.allowsLocalEnvironments = allowsLocalEnvironments
        self.bundleIdentifier = bundleIdentifier
        self.appAppleID = appAppleID
        self.environment = environment
        self.trustEvaluationTime = trustEvaluationTime
        self.revocationCheck = revocationCheck
    }
}
