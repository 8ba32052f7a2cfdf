import Foundation
import ReceiptKit
import ReceiptKitTesting

@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

/// Mutates receipts as models: decode, change one field or structure, re-sign with the fuzzing CA in a random
/// layout. Byte-level mutation (libFuzzer's own) is used half of the time and whenever the input does not decode.
public enum StructureAwareMutator {
    public static func mutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
        var rng = SplitMix64(state: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15)
        let bytes = Array(UnsafeBufferPointer(start: data, count: size))
        guard rng.next() % 2 == 0, var receipt = try? AppReceipt(berEncoded: bytes) else {
            return LLVMFuzzerMutate(data, size, maxSize)
        }
        Self.mutateModel(&receipt, &rng)
        let options = ReceiptMinter.Options(
            style: rng.next() % 2 == 0 ? .appStore : .xcode,
            digest: rng.next() % 2 == 0 ? .sha1 : .sha256,
            signedAttributes: rng.next() % 2 == 0
        )
        guard let minted = try? ReceiptMinter.mint(receipt, signer: FuzzEnvironment.authority.receiptSigner, options: options),
            minted.count <= maxSize
        else {
            return LLVMFuzzerMutate(data, size, maxSize)
        }
        minted.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { data.update(from: base, count: minted.count) }
        }
        return minted.count
    }

    static func mutateModel(_ receipt: inout AppReceipt, _ rng: inout SplitMix64) {
        let junk = Array((0..<Int(rng.next() % 40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        switch rng.next() % 12 {
        case 0: receipt.bundleIdentifier = String(decoding: junk, as: UTF8.self); receipt.bundleIdentifierData = nil
        case 1: receipt.appVersion = String(rng.next() % 100)
        case 2: receipt.creationDate = Date(epochMilliseconds: Int64(bitPattern: rng.next() % 253_402_300_799_000))
        case 3: receipt.expirationDate = rng.next() % 2 == 0 ? nil : Date(epochMilliseconds: Int64(rng.next() % 4_000_000_000_000))
        case 4: receipt.opaqueValue = junk
        case 5: receipt.sha1Hash = junk
        case 6: receipt.otherAttributes.append(ReceiptAttribute(type: Int64(bitPattern: rng.next()) % 5000, value: junk))
        case 7: receipt.inAppPurchases.append(InAppPurchase(quantity: Int64(bitPattern: rng.next()), productIdentifier: "p"))
        case 8: if !receipt.inAppPurchases.isEmpty { receipt.inAppPurchases.removeLast() }
        case 9:
            if !receipt.inAppPurchases.isEmpty {
                receipt.inAppPurchases[0].otherAttributes.append(ReceiptAttribute(type: 1700 + Int64(rng.next() % 40), value: junk))
            }
        case 10: receipt.environment = ReceiptEnvironment(rawValue: ["Production", "Xcode", "ProductionVPP", ""][Int(rng.next() % 4)])
        default:
            receipt = ReceiptMinter.settingDeviceHash(of: receipt, for: FuzzEnvironment.device)
        }
    }
}

/// A small deterministic generator for mutators.
public struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    public init(state: UInt64) {
        self.state = state
    }

    public mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
