import AppStoreJWS

/// Network waits of a validation — OCSP responders, through AppStoreJWS's ``RevocationWaitScope`` — run with the
/// validation's CPU slot given back (``ValidationLimiter``): a flood of verifications waiting for a responder
/// never keeps receipts and notifications from the processor. The responders themselves are asked at most
/// ``AppStoreJWS/RevocationCache/maximumConcurrentFetches`` at a time, each path once while its answer holds.
struct NetworkWaitScope: RevocationWaitScope {
    func waiting<T: Sendable>(_ wait: @escaping @Sendable () async -> T) async -> T {
        guard let permit = ValidationLimiter.permit else { return await wait() }
        return await permit.setAside(wait)
    }
}
