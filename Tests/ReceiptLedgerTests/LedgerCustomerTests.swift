import Foundation
import ReceiptKit
import ReceiptLedger
import LedgerTestSupport
import Testing

/// A customer as the ledger tells it (``Ledger/customer(environment:bundleIdentifier:transactionIdentifier:)``): the
/// original transactions one receipt holds, found by any of their transaction ids or original ids, with the JWS of
/// every transaction and signed renewal information — on every backend.
@Suite("Ledger customers")
struct LedgerCustomerTests {
    typealias S = LedgerSourcesTests
    typealias V = LedgerSignedValuesTests

    static func customer(_ ledger: any Ledger, _ id: String, environment: AppStoreEnvironment = .production) async throws
        -> LedgerCustomer?
    {
        try await ledger.customer(environment: environment, bundleIdentifier: "com.example.app", transactionIdentifier: id)
    }

    @Test("one receipt's original transactions are one customer; a newer receipt moves an original transaction to its own; signed-only is alone",
          arguments: LedgerBackend.available)
    func customersFromReceipts(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            let first = LedgerContractTests.entry(
                ServiceTestPKI.receipt(createdDay: 10, purchases: [
                    ServiceTestPKI.purchase("1000", original: "1000", day: 1),
                    ServiceTestPKI.purchase("1001", original: "1000", day: 2),
                    ServiceTestPKI.purchase("2000", original: "2000", product: "com.example.lifetime", day: 3, subscription: false),
                ]), tag: "first")
            let other = LedgerContractTests.entry(
                ServiceTestPKI.receipt(createdDay: 10, purchases: [ServiceTestPKI.purchase("3000", original: "3000", day: 1)]),
                tag: "other")
            try await ledger.record(first)
            try await ledger.record(other)
            // A transaction learnt from signed data only, of an original transaction no receipt carried.
            var loner = S.signed("4000", signed: 5_000)
            loner.originalTransactionIdentifier = "4000"
            loner.signedJWS = V.jws("loner")
            loner.receiptHash = LedgerTransaction.signedDataHash(of: V.jws("loner"))
            var renewal = S.renewal(5_000)
            renewal.signedJWS = V.jws("renewal")
            try await ledger.apply(LedgerUpdate(source: .notification, transactions: [loner], renewalInfo: [renewal]))

            // Any transaction id or original id of the customer.
            for id in ["1000", "1001", "2000"] {
                let customer = try #require(try await Self.customer(ledger, id), "\(id)")
                #expect(customer.originalTransactionIdentifiers == ["1000", "2000"], "\(id)")
                #expect(Set(customer.transactions.map(\.transactionIdentifier)) == ["1000", "1001", "2000"])
                #expect(customer.transactions.allSatisfy { $0.signed.source == .receipt && $0.signed.currentJWS == nil })
                #expect(customer.signedRenewalInfo == ["1000": V.jws("renewal")], "signed renewal info only")
                #expect(customer.environment == .production && customer.bundleIdentifier == "com.example.app")
            }
            #expect(try await Self.customer(ledger, "3000")?.originalTransactionIdentifiers == ["3000"])
            let alone = try #require(try await Self.customer(ledger, "4000"))
            #expect(alone.originalTransactionIdentifiers == ["4000"])
            #expect(alone.transactions.map(\.signed.currentJWS) == [V.jws("loner")])
            #expect(alone.transactions.map(\.versionMilliseconds) == [5_000])
            #expect(try await Self.customer(ledger, "9999") == nil)
            #expect(try await Self.customer(ledger, "1000", environment: .sandbox) == nil)
            #expect(try await ledger.customer(environment: .production, bundleIdentifier: "com.example.other", transactionIdentifier: "1000") == nil)

            // The customer's newer receipt also carries a purchase the first one did not: all three are one customer.
            let newer = LedgerContractTests.entry(
                ServiceTestPKI.receipt(createdDay: 20, purchases: [
                    ServiceTestPKI.purchase("1000", original: "1000", day: 1),
                    ServiceTestPKI.purchase("2000", original: "2000", product: "com.example.lifetime", day: 3, subscription: false),
                    ServiceTestPKI.purchase("5000", original: "5000", product: "com.example.coins", day: 15, subscription: false),
                ]), tag: "newer")
            try await ledger.record(newer)
            #expect(try await Self.customer(ledger, "5000")?.originalTransactionIdentifiers == ["1000", "2000", "5000"])
            #expect(try await Self.customer(ledger, "1001")?.originalTransactionIdentifiers == ["1000", "2000", "5000"])
        }
    }
}
