/// What a ``ServerTrustPolicy`` pins, as in AFNetworking's `AFSSLPinningMode`.
public struct PinningMode: Sendable, Hashable, CustomStringConvertible {
    let name: String
    /// No pinning: default trust evaluation only.
    public static let none = PinningMode(name: "none")
    /// A pinned certificate must be on the validated path. Pinned certificates also serve as anchors, which is how
    /// a self-signed server is trusted.
    public static let certificate = PinningMode(name: "certificate")
    /// A pinned public key (``PublicKeyPin``) must belong to a certificate on the validated path.
    public static let publicKey = PinningMode(name: "public-key")
    public var description: String { self.name }
}
