// The shapes of errors, visible to clients without importing the underscored module.
@_exported public import protocol _ReceiptKitShared.CodedError
@_exported public import protocol _ReceiptKitShared.ErrorCode
// The key a simulated store registers (`SimulatedAPIKey`) is the one a bearer token is checked against.
@_exported public import struct AppStoreServerAPI.BearerTokenVerifier
@_exported public import struct AppStoreServerAPI.APIErrorAnswer
