import Foundation
import FuzzSupport
import ReceiptKit
import ReceiptKitTesting

/// The mint → inspect round trip: the input is a verifyReceipt-shaped JSON spec (as `receiptkit inspect --json`
/// prints). Whatever decodes must mint, decode back to the same model, and validate for its own identity.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMintRoundTrip(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let json = Data(UnsafeBufferPointer(start: data, count: size))
    guard let spec = try? JSONDecoder().decode(AppReceipt.self, from: json) else { return 0 }
    let minted: [UInt8]
    do {
        minted = try ReceiptMinter.mint(spec, signer: FuzzEnvironment.authority.receiptSigner)
    } catch {
        return 0  // e.g. a value that cannot be encoded; not a decoder finding
    }
    let decoded: AppReceipt
    do {
        decoded = try AppReceipt(berEncoded: minted)
    } catch {
        // Minting writes what the spec says. Only a date outside years 1–9999 (which RFC 3339 cannot carry) may
        // make the decoder reject it; anything else is a finding.
        precondition(FuzzChecks.hasUnrepresentableDate(spec), "mint(spec) did not decode: \(error)")
        return 0
    }
    precondition(decoded == spec, "inspect(mint(spec)) != spec")
    precondition(decoded.bundleIdentifierData == spec.bundleIdentifier.map(FuzzChecks.derUTF8String))
    return 0
}
