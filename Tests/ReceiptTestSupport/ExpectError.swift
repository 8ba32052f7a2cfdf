package import ReceiptKit
package import Testing

/// Expects `body` to throw a ``ReceiptError`` with exactly `code`.
package func expectReceiptError(
    _ code: ReceiptError.Code,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected \(code), nothing was thrown. \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
    } catch let error as ReceiptError {
        #expect(error.code == code, "\(error.reason) \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
}
