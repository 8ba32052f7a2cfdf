public import AppStorePKI

// The trust types moved to AppStorePKI under neutral names, shared with App Store JWS verification.

/// Renamed `AppStoreTrustAnchors`.
@available(*, deprecated, renamed: "AppStoreTrustAnchors")
public typealias ReceiptTrustAnchors = AppStoreTrustAnchors

/// Renamed `AppStoreTrustAnchor`.
@available(*, deprecated, renamed: "AppStoreTrustAnchor")
public typealias ReceiptTrustAnchor = AppStoreTrustAnchor

/// Renamed `AppStoreTrustCache`.
@available(*, deprecated, renamed: "AppStoreTrustCache")
public typealias ReceiptTrustCache = AppStoreTrustCache
