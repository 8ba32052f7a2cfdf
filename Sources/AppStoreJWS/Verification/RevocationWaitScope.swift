/// Where a verification waits for the network during its revocation check: an OCSP responder, or another
/// verification's fetch of the same answer (``RevocationCache``).
///
/// A server that bounds verifications by CPU slots gives its slot back for the wait and takes one again after it,
/// so verifications waiting for a responder never keep others from the processor (ReceiptService does this with
/// its validation limiter).
public protocol RevocationWaitScope: Sendable {
    /// Runs `wait` and returns what it returned.
    func waiting<T: Sendable>(_ wait: @escaping @Sendable () async -> T) async -> T
}
