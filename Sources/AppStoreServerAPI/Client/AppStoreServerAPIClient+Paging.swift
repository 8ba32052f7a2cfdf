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
    /// the first) until a page says there is no more, at most ``AppStoreServerAPIConfiguration/maximumPages`` of
    /// them.
    /// - Parameter progress: Called after each page with the pages and the items read so far.
    /// - Returns: The last page and the items of every page.
    /// - Throws: ``AppStoreServerAPIError/Code/malformedResponse`` for a page that says more follow but gives no
    ///   token, or for more pages than allowed; what `fetch` throws.
    func allPages<Page, Item>(
        _ paging: Paging<Page, Item>,
        progress: ((_ pages: Int, _ items: Int) -> Void)? = nil,
        fetch: (_ token: String?) async throws(AppStoreServerAPIError) -> Page
    ) async throws(AppStoreServerAPIError) -> (last: Page, items: [Item]) {
        var all: [Item] = []
        var token: String? = nil
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
            guard pages < self.configuration.maximumPages else { throw self.tooManyPages() }
            token = next
        }
    }

    /// A paged answer that still has more after the most pages allowed.
    private func tooManyPages() -> AppStoreServerAPIError {
        AppStoreServerAPIError(
            .malformedResponse,
            "the answer still has more after \(self.configuration.maximumPages) pages (maximumPages)"
        )
    }
}
