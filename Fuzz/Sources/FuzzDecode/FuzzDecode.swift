import Foundation
import FuzzSupport
import ReceiptKit

/// Decoding, as DER/BER bytes and as base64 text, then every lazily produced value and the JSON rendering.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for receipt in [try? AppReceipt(berEncoded: bytes), try? AppReceipt(base64Encoded: bytes)] {
        guard let receipt else { continue }
        FuzzChecks.touchEverything(receipt)
    }
    return 0
}
