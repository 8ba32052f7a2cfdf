import Foundation
import ReceiptKitTesting

extension ChildProcess {
    /// Runs `swiftc` with `arguments` once a compiler slot is free: compilers take turns, at most one per core, as
    /// the cooperative pool allowed when tests waited for them there.
    static func compile(_ arguments: [String]) async throws -> Output {
        await CompilerSlots.shared.acquire()
        do {
            let output = try await Self.run(URL(fileURLWithPath: HarnessBuild.swiftc ?? "swiftc"), arguments)
            await CompilerSlots.shared.release()
            return output
        } catch {
            await CompilerSlots.shared.release()
            throw error
        }
    }
}
