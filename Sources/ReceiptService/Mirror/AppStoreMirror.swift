import AppStoreJWS
import AppStorePKI
import AppStoreServerAPI
import Crypto
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
    /// Refreshes the ids of a query from the App Store Server API when their data is due — sooner when it is stale
    /// (the second argument: the ledger holds no JWS of something it must serve) — within the refresh wait
    /// (``ReceiptVerifier``'s bridge, the single flight `/verifyReceipt` shares); whether the ledger was written.
    let refresh: @Sendable (LedgerQuery, Bool) async -> Bool

    /// The mirror of `configuration`'s apps, or `nil` when no app has a key (the routes are then not served).
    init?(
        configuration: AppStoreServerAPIBridgeConfiguration, ledger: any Ledger, now: @escaping @Sendable () -> Date,
        refresh: @escaping @Sendable (LedgerQuery, Bool) async -> Bool = { _, _ in false }
    ) {
        var keys: [AppStoreEnvironment: [BearerTokenVerifier.Key]] = [:]
        for app in configuration.apps {
            for (environment, key) in app.tokenKeys { keys[environment, default: []].append(key) }
        }
        guard !keys.isEmpty else { return nil }
        self.ledger = ledger
        self.verifiers = keys.mapValues { BearerTokenVerifier(keys: Self.merged($0)) }
        self.now = now
        self.refresh = refresh
    }

    /// A mirror for a caller the process trusts (``MirrorCaller/trusted(bundleIdentifier:)``): `receiptkit
    /// subscription` reading a ledger directly, with no token and no refresh from Apple.
    init(ledger: any Ledger, now: @escaping @Sendable () -> Date) {
        self.ledger = ledger
        self.verifiers = [:]
        self.now = now
        self.refresh = { _, _ in false }
    }

    /// One key per key id: a key that serves several apps names them all. Entries that give one key id different
    /// keys or issuers (a settings mistake) leave that key id out altogether — its tokens are refused — rather than
    /// let one app's key read another app's data.
    static func merged(_ keys: [BearerTokenVerifier.Key]) -> [BearerTokenVerifier.Key] {
        var merged: [String: BearerTokenVerifier.Key] = [:]
        var conflicting = Set<String>()
        for key in keys {
            guard var held = merged[key.keyID] else {
                merged[key.keyID] = key
                continue
            }
            guard held.issuerID == key.issuerID,
                held.publicKey.x963Representation == key.publicKey.x963Representation
            else {
                conflicting.insert(key.keyID)
                continue
            }
            held.bundleIdentifiers = (held.bundleIdentifiers ?? []).union(key.bundleIdentifiers ?? [])
            merged[key.keyID] = held
        }
        return merged.values.filter { !conflicting.contains($0.keyID) }
    }

    /// Get Transaction Info, `GET /inApps/v1/transactions/{transactionId}`: `{"signedTransactionInfo": …}`.
    ///
    /// For an app the App Store Server API refreshes, its original transaction is refreshed first when due.
    /// A transaction the ledger does not hold (or holds for another app, or the other environment) is Apple's 404
    /// (4040010). One it holds without the JWS of its current version — learnt from a receipt, or its newest version
    /// a receipt's — is Apple's retryable internal error (500, 5000001): Apple knows it, the mirror cannot sign for
    /// it, and a client must not read "does not exist".
    func transactionInfo(
        environment: AppStoreEnvironment, caller: MirrorCaller, transactionID: String
    ) async -> MirrorAnswer {
        let bundle: String
        switch self.admit(environment, caller, transactionID) {
        case .refused(let answer): return answer
        case .admitted(let bundleIdentifier): bundle = bundleIdentifier
        }
        do throws(LedgerError) {
            guard
                var stored = try await self.ledger.signedTransaction(
                    environment: environment, bundleIdentifier: bundle, transactionIdentifier: transactionID)
            else { return .error(.transactionIdNotFound) }
            let query = LedgerQuery(
                environment: environment, bundleIdentifier: bundle,
                originalTransactionIdentifiers: [stored.originalTransactionIdentifier])
            if await self.refresh(query, stored.currentJWS == nil),
                let refreshed = try await self.ledger.signedTransaction(
                    environment: environment, bundleIdentifier: bundle, transactionIdentifier: transactionID)
            {
                stored = refreshed
            }
            guard let jws = stored.currentJWS else { return .error(.generalInternalRetryable) }
            return .ok(["signedTransactionInfo": .string(jws)])
        } catch {
            return .error(error.isRetryable ? .generalInternalRetryable : .generalInternal)
        }
    }

    /// Whether a request may be answered: the app its bearer token names, or the answer refusing it.
    enum Admission {
        case admitted(bundleIdentifier: String)
        case refused(MirrorAnswer)
    }

    /// The token checked as Apple checks it (401 with an empty body for any refusal), then the id (Apple's 400 for
    /// one that is not a transaction id): every endpoint's first steps, in Apple's order. A trusted caller names its
    /// app itself.
    func admit(_ environment: AppStoreEnvironment, _ caller: MirrorCaller, _ transactionID: String) -> Admission {
        let bundleIdentifier: String
        switch caller {
        case .trusted(let bundle):
            bundleIdentifier = bundle
        case .token(let authorization):
            switch self.verifiers[environment]?.check(authorization, now: self.now()) ?? .refused("unknown_key") {
            case .refused(let reason): return .refused(.unauthorized(reason))
            case .accepted(_, let bundle): bundleIdentifier = bundle
            }
        }
        guard Self.isTransactionIdentifier(transactionID) else { return .refused(.error(.invalidTransactionId)) }
        return .admitted(bundleIdentifier: bundleIdentifier)
    }

    /// `text` as a number when it is 1 to 18 ASCII digits (no sign, no space: Apple's parameters are plain digits;
    /// 18 digits cannot overflow), else `nil`.
    static func digits(_ text: String) -> Int64? {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }

    /// Apple's transaction ids: 1 to 64 ASCII digits (InvalidTransactionIdError otherwise).
    static func isTransactionIdentifier(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
