import Foundation
import FuzzSupport
import ReceiptKit
import ReceiptKitTesting

/// Full validation with a pinned clock and the fuzzing CA as anchor. A structure-aware mutator re-signs mutated
/// receipt models half of the time, so inputs reach the payload checks and the signature with valid signatures.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValidate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let outcome = FuzzEnvironment.validateBlocking(bytes) else { return 0 }
    if case .success(let result) = outcome {
        FuzzChecks.touchEverything(result.receipt)
        // A valid verdict must mean what it says.
        if result.isValid {
            precondition(result.receipt.bundleIdentifier == "com.example.fuzz")
            precondition(!result.certificatePath.isEmpty)
        }
    }
    return 0
}

@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzValidateMutator(
    _ data: UnsafeMutablePointer<UInt8>,
    _ size: Int,
    _ maxSize: Int,
    _ seed: UInt32
) -> Int {
    StructureAwareMutator.mutate(data, size, maxSize, seed)
}
