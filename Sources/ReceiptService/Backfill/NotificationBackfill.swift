import AppStorePKI
import AppStoreServerAPI
import struct Foundation.Date
import ReceiptLedger

/// One app's backfill in one environment: runs a window of Get Notification History page by page, each
/// notification through ``ReceiptVerifier/answerBackfilledNotification(signedPayload:environment:bundleIdentifier:)``.
struct NotificationBackfill: Sendable {
    /// The most pages one window reads: Apple's pages end; pages that do not are refused (`pagination`).
    static let maximumPages = 100_000

    let environment: AppStoreEnvironment
    let bundleIdentifier: String
    let client: AppStoreServerAPIClient
    let verifier: ReceiptVerifier

    /// The window's notifications, every page: stops at the first failure (a page Apple did not answer, a
    /// notification that could not be recorded for a reason a retry mends, `renew` answering `false`).
    /// - Parameters:
    ///   - renew: Called before each page after the first: why the instance no longer holds the app, or `nil`.
    ///   - progress: The report so far, after each page.
    func run(
        _ report: NotificationBackfillReport,
        renew: @Sendable () async -> NotificationBackfillReport.Failure? = { nil },
        progress: @Sendable (NotificationBackfillReport) -> Void = { _ in }
    ) async -> NotificationBackfillReport {
        var report = report
        let request = NotificationHistoryRequest(
            startDate: report.start, endDate: report.end, onlyFailures: report.onlyFailures ? true : nil)
        var token: String?
        var tokens = Set<String>()
        while true {
            let page: NotificationHistoryResponse<String>
            do throws(AppStoreServerAPIError) {
                page = try await self.client.notificationHistoryPageUnverified(request, paginationToken: token)
            } catch {
                let refused = error.code == .unauthorized || error.code == .forbidden
                report.failure = .init(
                    code: refused ? "key_refused" : "app_store_server_api",
                    message: "Get Notification History: \(error.code.rawValue): \(error.reason)")
                return report
            }
            report.pages += 1
            for item in page.notificationHistory {
                report.found += 1
                guard let signedPayload = item.notification else {
                    report.refused["signed_payload_missing", default: 0] += 1
                    continue
                }
                let answer = await self.verifier.answerBackfilledNotification(
                    signedPayload: signedPayload, environment: self.environment, bundleIdentifier: self.bundleIdentifier)
                switch answer.outcome {
                case .recorded:
                    report.recorded += 1
                case .duplicate:
                    report.duplicates += 1
                case .unavailable:
                    // Not recorded, and a retry may record it: the window is not done.
                    let reasons = answer.reasons.map(\.code).joined(separator: ", ")
                    report.failure = .init(code: "ledger_unavailable", message: "a notification could not be recorded now (\(reasons))")
                    progress(report)
                    return report
                default:
                    report.refused[answer.reasons.first?.code ?? answer.outcome.rawValue, default: 0] += 1
                }
            }
            progress(report)
            guard page.hasMore else { return report }
            guard let next = page.paginationToken, !next.isEmpty, tokens.insert(next).inserted,
                report.pages < Self.maximumPages
            else {
                report.failure = .init(
                    code: "pagination",
                    message: "Get Notification History said more pages follow without a new paginationToken, or past \(Self.maximumPages) pages")
                return report
            }
            if let failure = await renew() {
                report.failure = failure
                return report
            }
            token = next
        }
    }
}
