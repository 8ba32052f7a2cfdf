import NIOConcurrencyHelpers
import _ReceiptKitShared

/// The process's bound on concurrent requests per In-App Purchase key: every client of one key takes turns on one
/// semaphore, sized by the first client made for the key.
enum KeyConcurrencyLimits {
    private static let semaphores = NIOLockedValueBox<[String: AsyncSemaphore]>([:])

    static func semaphore(for key: AppStoreServerAPIKey, permits: Int) -> AsyncSemaphore {
        let name = "\(key.issuerID)\u{0}\(key.keyID)"
        return Self.semaphores.withLockedValue { semaphores in
            if let existing = semaphores[name] { return existing }
            let semaphore = AsyncSemaphore(permits: max(1, permits))
            semaphores[name] = semaphore
            return semaphore
        }
    }
}
