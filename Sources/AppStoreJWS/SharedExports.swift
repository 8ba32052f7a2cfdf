// The shapes of errors and reason codes, and the JSON values payloads hold, visible to clients without importing the
// underscored module.
@_exported public import protocol _ReceiptKitShared.CodedError
@_exported public import protocol _ReceiptKitShared.ErrorCode
@_exported public import protocol _ReceiptKitShared.ReasonCode
@_exported public import enum _ReceiptKitShared.JSONValue
@_exported public import struct _ReceiptKitShared.JSONNumber
