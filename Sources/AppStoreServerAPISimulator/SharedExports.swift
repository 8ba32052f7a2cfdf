// The shapes of errors, visible to clients without importing the underscored module.
@_exported public import protocol _ReceiptKitShared.CodedError
@_exported public import protocol _ReceiptKitShared.ErrorCode
