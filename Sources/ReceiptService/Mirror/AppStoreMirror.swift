import AppStoreJWS
import AppStorePKI
import AppStoreServerAPI
import ReceiptLedger
import struct Foundation.Date

/// Apple's App Store Server API answered from the ledger: the paths and shapes Apple documents, production under
/// `/inApps/…` and sandbox under `/sandbox/inApps/…`, so that an application using Apple's own
/// app-store-server-library changes only its base URL. Signed values are the JWS Apple signed, byte for byte, as the
/// ledger kept them (``LedgerTransaction/signedJWS``).
///
/// Callers authenticate as they do with Apple: an ES256 bearer token signed by an In-App Purchase key configured
/// for the app it names (`bid`; ``VerifyReceiptConfiguration/appStoreServerAPI``), checked by
/// ``BearerTokenVerifier``; any failure is 401 with an empty body.
struct AppStoreMirror: Sendable {
    let ledger: any Ledger
    /// The tokens each environment accepts: the keys configured for it.
    let verifiers: [AppStoreEnvironment: BearerTokenVerifier]
    let now: @Sendable () -> Date

    /// The mirror of `configuration`'s apps, or `nil` when no app has a key (the routes are then not served).
    init?(configuration: AppStoreServerAPIBridgeConfiguration, ledger: any Ledger, now: @escaping @Sendable () -> Date) {
        var keys: [AppStoreEnvironment: [BearerTokenVerifier.Key]] = [:]
        for app in configuration.apps {
            for client in [app.production, app.sandbox].compactMap({ $0 }) {
                keys[client.environment, default: []].append(
                    BearerTokenVerifier.Key(
                        keyID: client.key.keyID, issuerID: client.key.issuerID, publicKey: client.key.publicKey,
                        bundleIdentifiers: [app.bundleIdentifier]))
            }
        }
        guard !keys.isEmpty else { return nil }
        self.ledger = ledger
        self.verifiers = keys.mapValues { keys in
            // One key may serve several apps: its entries merged.
            var merged: [String: BearerTokenVerifier.Key] = [:]
            for key in keys {
                if var held = merged[key.keyID], held.issuerID == key.issuerID {
                    held.bundleIdentifiers = (held.bundleIdentifiers ?? []).union(key.bundleIdentifiers ?? [])
                    merged[key.keyID] = held
                } else if merged[key.keyID] == nil {
                    merged[key.keyID] = key
                }
            }
            return BearerTokenVerifier(keys: Array(merged.values))
        }
        self.now = now
    }

    /// Get Transaction Info, `GET /inApps/v1/transactions/{transactionId}`: `{"signedTransactionInfo": …}`.
    ///
    /// A transaction the ledger knows only from a receipt has no JWS to give: it is answered as Apple answers one it
    /// does not know (404, 4040010), as is a transaction of another app.
    func transactionInfo(
        environment: AppStoreEnvironment, authorization: String?, transactionID: String
    ) async -> MirrorAnswer {
        let bundle: String
        switch self.verifiers[environment]?.check(authorization, now: self.now()) ?? .refused("unknown_key") {
        case .refused(let reason): return .unauthorized(reason)
        case .accepted(_, let bundleIdentifier): bundle = bundleIdentifier
        }
        guard Self.isTransactionIdentifier(transactionID) else { return .error(.invalidTransactionId) }
        do throws(LedgerError) {
            guard
                let original = try await self.ledger.originalTransactionIdentifier(
                    environment: environment, bundleIdentifier: bundle, transactionIdentifier: transactionID)
            else { return .error(.transactionIdNotFound) }
            let snapshot = try await self.ledger.snapshot(
                matching: LedgerQuery(environment: environment, bundleIdentifier: bundle, originalTransactionIdentifiers: [original]))
            guard let jws = snapshot.transactions.first(where: { $0.transactionIdentifier == transactionID })?.signedJWS
            else { return .error(.transactionIdNotFound) }
            return .ok(["signedTransactionInfo": .string(jws)])
        } catch {
            return .error(error.isRetryable ? .generalInternalRetryable : .generalInternal)
        }
    }

    /// Apple's transaction ids: 1 to 64 ASCII digits (InvalidTransactionIdError otherwise).
    static func isTransactionIdentifier(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
