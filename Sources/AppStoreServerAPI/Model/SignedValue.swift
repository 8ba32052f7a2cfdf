public import AppStoreJWS

/// A signed value as Apple sent it — its compact JWS, byte for byte — and the payload it verified to: what a
/// caller that keeps or serves Apple's signatures needs (the `…Signed` calls of ``AppStoreServerAPIClient``).
public struct SignedValue<Payload: AppStoreSignedPayload>: Sendable, Hashable {
    /// The compact JWS, as received.
    public let jws: String
    /// Its payload, verified.
    public let payload: Payload

    /// Pairs a JWS with the payload it verified to.
    public init(jws: String, payload: Payload) {
        self.jws = jws
        self.payload = payload
    }
}
