import Dispatch
import Foundation
import ServerTrust
import X509

/// Server-trust evaluation of a fuzzed chain for a fuzzed host: the input is `host|||anchors|||chain` (PEM or DER,
/// several PEM blocks allowed). Evaluated under default policies of both profiles, certificate-pinned and key-pinned ones, each pinned
/// one also with invalid certificates allowed, where a trusted path must still be linked by signatures to a pin.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerTrust(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parts = bytes.split(separator: Array("|||".utf8), maxSplits: 2, omittingEmptySubsequences: false).map(Array.init)
    guard parts.count == 3 else { return 0 }
    let host = String(decoding: parts[0].prefix(255), as: UTF8.self)
    let anchors = (try? ServerTrustCertificates.parse(parts[1])) ?? []
    let chain = (try? ServerTrustCertificates.parse(parts[2])) ?? []
    let pins = anchors.compactMap { PublicKeyPin(publicKeyOf: $0) }
    let identity: ServerIdentity = host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? .ip(host) : .host(host)
    let time = Date(timeIntervalSince1970: 1_750_000_000)

    var policies: [ServerTrustPolicy] = [.default, .default(profile: .rfc5280)]
    for invalid in [false, true] {
        if let pinned = try? ServerTrustPolicy(mode: .certificate, pinnedCertificates: anchors, allowsInvalidCertificates: invalid, requiresBackupPin: false) {
            policies.append(pinned)
        }
        if let keyed = try? ServerTrustPolicy(mode: .publicKey, pins: pins, allowsInvalidCertificates: invalid, requiresBackupPin: false) {
            policies.append(keyed)
        }
    }
    for policy in policies {
        let evaluator = ServerTrustEvaluator(policies: ServerTrustPolicies(policy), anchors: anchors)
        let result = Blocking.run { await evaluator.evaluate(chain: chain, for: identity, at: time) }
        guard let result, result.isTrusted else { continue }
        // Trusted means a path that starts at the presented leaf...
        precondition(result.chain.first == chain.first, "trusted path does not start at the leaf")
        guard policy.mode != .none else { continue }
        // ...and, when pinning, in which each certificate is signed by the next, up to one that is pinned.
        for (child, parent) in zip(result.chain, result.chain.dropFirst()) {
            precondition(parent.publicKey.isValidSignature(child.signature, for: child), "unlinked certificate on a trusted path")
        }
        let pinned = result.chain.contains { certificate in
            anchors.contains(certificate) || PublicKeyPin(publicKeyOf: certificate).map(pins.contains) == true
        }
        precondition(pinned, "trusted pinned path without a pin")
    }
    return 0
}

enum Blocking {
    final class Box: @unchecked Sendable {
        var value: ServerTrustResult?
    }

    static func run(_ body: @escaping @Sendable () async -> ServerTrustResult) -> ServerTrustResult? {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value
    }
}
