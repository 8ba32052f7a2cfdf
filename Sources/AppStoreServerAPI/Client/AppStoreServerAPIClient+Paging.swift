import Foundation
import _ReceiptKitShared

extension AppStoreServerAPIClient {
    /// What one paged endpoint needs of its pages: their items, whether more follow, and the token that asks for
    /// the next (`revision`, `paginationToken`).
    struct Paging<Page, Item> {
        /// The token's name in Apple's answers, for the message when it is missing.
        let tokenName: String
        let items: (Page) -> [Item]
        let hasMore: (Page) -> Bool
        let next: (Page) -> String?
    }

    /// Every page of a paged endpoint, in Apple's order: `fetch` asked with the token of the page before (none for
    /// the first) until a page says there is no more — at most ``AppStoreServerAPIConfiguration/maximumPages`` of
    /// them, ``AppStoreServerAPIConfiguration/maximumPagedItems`` items in all, for
    /// ``AppStoreServerAPIConfiguration/maximumPagingTime`` from the first request, and never a token twice (an
    /// answer that sends one back would page for ever).
    /// - Parameter progress: Called after each page with the pages and the items read so far.
    /// - Returns: The last page and the items of every page.
    /// - Throws: ``AppStoreServerAPIError/Code/malformedResponse`` for a page that says more follow but gives no
    ///   token, or one given before, or past a bound; what `fetch` throws.
    func allPages<Page, Item>(
        _ paging: Paging<Page, Item>,
        progress: ((_ pages: Int, _ items: Int) -> Void)? = nil,
        fetch: (_ token: String?) async throws(AppStoreServerAPIError) -> Page
    ) async throws(AppStoreServerAPIError) -> (last: Page, items: [Item]) {
        let configuration = self.configuration
        let started = self.runtime.now()
        var all: [Item] = []
        var token: String? = nil
        var tokens: Set<String> = []
        var pages = 0
        while true {
            let page = try await fetch(token)
            pages += 1
            all += paging.items(page)
            progress?(pages, all.count)
            guard paging.hasMore(page) else { return (page, all) }
            guard let next = paging.next(page) else {
                throw AppStoreServerAPIError(
                    .malformedResponse, "the answer says hasMore but has no \(paging.tokenName) to ask for the next page")
            }
            guard tokens.insert(next).inserted else {
                throw AppStoreServerAPIError(
                    .malformedResponse,
                    "the answer gives a \(paging.tokenName) it gave before (page \(pages)): paging would never end")
            }
            guard pages < configuration.maximumPages else {
                throw Self.pastBound("\(configuration.maximumPages) pages (maximumPages)")
            }
            guard all.count < configuration.maximumPagedItems else {
                throw Self.pastBound("\(all.count) items (maximumPagedItems \(configuration.maximumPagedItems))")
            }
            let elapsed = self.runtime.now().timeIntervalSince(started)
            guard elapsed < DurationConversion.seconds(configuration.maximumPagingTime) else {
                throw Self.pastBound("\(pages) pages read for \(Int(elapsed)) s (maximumPagingTime)")
            }
            token = next
        }
    }

    /// A paged answer that still has more past one of the bounds.
    private static func pastBound(_ what: String) -> AppStoreServerAPIError {
        AppStoreServerAPIError(.malformedResponse, "the answer still has more after \(what)")
    }
}
