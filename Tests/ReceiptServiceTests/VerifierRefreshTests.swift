import AppStoreJWS
import AppStorePKI
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ReceiptKitTesting
import ReceiptLedger
@testable import ReceiptService
import LedgerTestSupport
import Testing

/// `ReceiptVerifier` and the refresh it sees through `LedgerRefreshing`, with a scripted refresher: which ids it
/// asks for, and that it reads the ledger again only when the refresh says it wrote in time.
@Suite("verifyReceipt through a scripted refresh")
struct VerifierRefreshTests {
    typealias H = ServiceHarness
    typealias L = LedgerAnswerTests
    typealias N = NotificationServiceTests

    /// Writes a renewal of the receipt's subscription when asked, and answers `answers`.
    final class ScriptedRefresher: LedgerRefreshing {
        let ledger: any Ledger
        let answers: Bool
        private let asked = NIOLockedValueBox<[[RefreshKey]]>([])

        init(ledger: any Ledger, answers: Bool) {
            (self.ledger, self.answers) = (ledger, answers)
        }

        var requests: [[RefreshKey]] { self.asked.withLockedValue { $0 } }

        var troubledApps: [APIAppTrouble] { [] }

        func refreshes(bundleIdentifier: String, environment: AppStoreEnvironment) -> Bool {
            bundleIdentifier == N.bundle
        }

        func refresh(_ keys: [RefreshKey], wait: Duration) async -> Bool {
            self.asked.withLockedValue { $0.append(keys) }
            guard let key = keys.first,
                let payload = try? JWSTransactionPayload(fields: N.transaction(L.renewal, environment: key.environment)),
                let row = LedgerTransaction(verified: payload, jws: "scripted", environment: key.environment, source: .api)
            else { return false }
            do {
                try await self.ledger.apply(LedgerUpdate(source: .api, transactions: [row], renewalInfo: [], refresh: nil))
            } catch {
                return false
            }
            return self.answers
        }
    }

    /// The components' verifier with `refresher` in place of the bridge.
    static func verifier(_ ledger: any Ledger, refresher: ScriptedRefresher) throws -> ReceiptVerifier {
        var configuration = try L.configuration()
        configuration.appStoreServerAPI.refreshInterval = .seconds(3600)
        let built = try ServiceComponents(configuration: configuration, ledger: ledger, now: { ServiceTestPKI.now }).verifier
        return ReceiptVerifier(
            configuration: built.configuration, ledger: ledger, validator: built.validator,
            jwsVerifier: built.jwsVerifier, limiter: built.limiter, receiptHashes: built.receiptHashes,
            metrics: built.metrics, refresher: refresher, now: built.now)
    }

    static func ids(_ answer: VerifyReceiptAnswer) throws -> [String]? {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        return L.ids(object)
    }

    @Test func theReceiptsDueIdsAreRefreshedAndTheLedgerReadAgain() async throws {
        let body = Array(H.body(try L.receipt()).readableBytesView)
        try await H.withMemoryLedger { ledger in
            let refresher = ScriptedRefresher(ledger: ledger, answers: true)
            let answer = try await Self.verifier(ledger, refresher: refresher).answer(body: body, endpoint: .production)
            #expect(answer.status == .valid)
            let asked = refresher.requests
            #expect(asked.count == 1)
            #expect(asked.first?.map(\.originalTransactionIdentifier) == [L.original])
            #expect(asked.first?.map(\.bundleIdentifier) == [N.bundle])
            #expect(try Self.ids(answer) == [L.renewal, L.original])
        }
    }

    @Test func aRefreshThatDidNotWriteInTimeIsNotReadBack() async throws {
        let body = Array(H.body(try L.receipt()).readableBytesView)
        try await H.withMemoryLedger { ledger in
            // It writes, but says it did not finish in time: the answer is the one read before it.
            let refresher = ScriptedRefresher(ledger: ledger, answers: false)
            let answer = try await Self.verifier(ledger, refresher: refresher).answer(body: body, endpoint: .production)
            #expect(answer.status == .valid)
            #expect(refresher.requests.count == 1)
            #expect(try Self.ids(answer) == [L.original])
        }
    }
}
