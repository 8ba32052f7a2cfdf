import AppStoreJWS

/// The opaque-looking paging tokens of ``AppStoreServerSimulator``: `revision` of transaction and refund history
/// (a place in the store's order of changes, so a later request with the last page's revision gets only what
/// changed since, as Apple's does) and `paginationToken` of notification history (a position).
enum SimulatorPageToken {
    static func encode(_ kind: String, _ position: Int) -> String {
        Base64URL.encode(Array("\(kind):\(position)".utf8))
    }

    /// The position `token` holds, or `nil` when it is not a token of `kind` the simulator issued.
    static func decode(_ kind: String, _ token: String) -> Int? {
        guard token.utf8.count <= 64, let bytes = Base64URL.decode(ArraySlice(token.utf8)) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix("\(kind):"), let position = Int(text.dropFirst(kind.count + 1)), position >= 0 else {
            return nil
        }
        return position
    }

    /// The position of an optional token: `.accepted(nil)` without one, `refusal` for one not issued.
    static func position(_ token: String?, _ kind: String, refusal: SimulatedAPIError) -> SimulatorChecked<Int?> {
        guard let token else { return .accepted(nil) }
        return Self.decode(kind, token).map { .accepted($0) } ?? .refused(refusal)
    }
}
