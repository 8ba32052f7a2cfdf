public import AppStoreJWS
public import AppStorePKI
import ReceiptKit
import _ReceiptKitShared

extension LedgerRenewalInfo {
    /// The `pending_renewal_info` element of verified StoreKit 2 renewal information (its keys and formats are
    /// `JWSRenewalInfoPayload`'s `pending_renewal_info` table); `nil` without an original transaction id. Renewal
    /// information names no app: `bundleIdentifier` is the one of the notification or request that carried it.
    ///
    /// `jws` (the compact JWS the payload was read from) is kept as the row's ``signedJWS``.
    ///
    /// Build it only from a payload whose signature verified: the ledger believes what it is given.
    public init?(
        verified payload: JWSRenewalInfoPayload,
        jws: String?,
        bundleIdentifier: String,
        environment: AppStoreEnvironment,
        source: LedgerSource
    ) {
        guard let original = payload.originalTransactionID, !original.isEmpty else { return nil }
        self.init(
            environment: environment,
            bundleIdentifier: bundleIdentifier,
            originalTransactionIdentifier: original,
            productIdentifier: payload.autoRenewProductID ?? payload.productID ?? "",
            updatedMilliseconds: payload.signedDate?.date.epochMilliseconds ?? 0,
            json: payload.pendingRenewalInfoJSON(),
            source: source,
            signedJWS: jws
        )
    }
}
