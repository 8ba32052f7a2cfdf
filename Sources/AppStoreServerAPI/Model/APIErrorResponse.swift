/// An App Store Server API error body (`{"errorCode":4040010,"errorMessage":"Transaction id not found."}`).
public struct APIErrorResponse: Sendable, Hashable, Codable {
    /// `errorCode`.
    public var errorCode: APIErrorCode?
    /// `errorMessage`.
    public var errorMessage: String?

    public init(errorCode: APIErrorCode? = nil, errorMessage: String? = nil) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
}
