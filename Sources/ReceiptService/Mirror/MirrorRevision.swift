import AppStoreJWS

/// The `revision` tokens of the mirror's pages: base64url of `kind:changeNumber:transactionId`, the last place a page
/// reached in its order (``MirrorPosition``), so that the next request continues after it — and, once a history has
/// no more, a later request with the last revision gets only what changed since, as Apple's does. Opaque to
/// clients; anything the mirror did not issue is Apple's InvalidRequestRevisionError.
enum MirrorRevision {
    /// Transaction history's pages.
    static let history = "history"
    /// Refund history's pages.
    static let refunds = "refunds"

    static func encode(_ kind: String, _ position: MirrorPosition) -> String {
        Base64URL.encode(Array("\(kind):\(position.number):\(position.identifier)".utf8))
    }

    /// The place `token` holds, or `nil` when it is not a token of `kind` the mirror issues.
    static func decode(_ kind: String, _ token: String) -> MirrorPosition? {
        guard token.utf8.count <= 160, let bytes = Base64URL.decode(ArraySlice(token.utf8)) else { return nil }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == kind, let number = Int64(parts[1]) else { return nil }
        let identifier = String(parts[2])
        guard identifier == MirrorPosition.end.identifier || identifier.isEmpty
            || AppStoreMirror.isTransactionIdentifier(identifier)
        else { return nil }
        return MirrorPosition(number: number, identifier: identifier)
    }
}
