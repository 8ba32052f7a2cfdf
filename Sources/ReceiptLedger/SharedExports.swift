// The shapes of errors and reason codes, visible to clients without importing the underscored module.
@_exported public import protocol _ReceiptKitShared.CodedError
@_exported public import protocol _ReceiptKitShared.ErrorCode
@_exported public import protocol _ReceiptKitShared.ReasonCode
