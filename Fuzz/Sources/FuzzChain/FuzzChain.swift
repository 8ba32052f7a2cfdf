import AppStorePKI
import Foundation
import FuzzSupport
import ReceiptKit
import ReceiptKitTesting

/// Certificate-chain trust with hostile certificates: the input, split at `|||`, becomes (1) PEM/DER anchors and
/// (2) the certificate set of a receipt whose content and signer info are genuine. Exercises certificate parsing,
/// the trust cache and swift-certificates' Verifier with garbage chains.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChain(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parts = bytes.split(separator: Array("|||".utf8), maxSplits: 5, omittingEmptySubsequences: false).map(Array.init)
    guard let first = parts.first else { return 0 }

    let anchors = (try? AppStoreTrustAnchors.certificates(fromDEROrPEM: first)) ?? []
    let certificates = Array(parts.dropFirst())
    guard let receipt = try? ReceiptMinter.mint(
        FuzzSeeds.receipt,
        signer: FuzzEnvironment.authority.receiptSigner,
        options: .init(rawCertificates: certificates.isEmpty ? nil : certificates)
    ) else { return 0 }

    let validator = ReceiptValidator(
        policy: ReceiptValidationPolicy(anchors: AppStoreTrustAnchors(anchors), allowsXcodeReceipts: true),
        cache: FuzzSeeds.sharedCache
    )
    if case .success(let result)? = FuzzEnvironment.validateBlocking(receipt, with: validator), result.isValid {
        // Valid means a validated path, ending at an anchor.
        precondition(!result.certificatePath.isEmpty)
    }
    return 0
}
