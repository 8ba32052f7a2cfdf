import Foundation

/// Lets at most one compiler per core run at a time: the suites start every generation's build at once, and twenty
/// optimizing compilers side by side would only share the cores and the memory.
actor CompilerSlots {
    static let shared = CompilerSlots(count: max(1, ProcessInfo.processInfo.activeProcessorCount))

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) {
        self.free = count
    }

    func acquire() async {
        if self.free > 0 {
            self.free -= 1
            return
        }
        await withCheckedContinuation { self.waiting.append($0) }
    }

    /// Hands the slot to the longest waiting caller, if any.
    func release() {
        if self.waiting.isEmpty {
            self.free += 1
        } else {
            self.waiting.removeFirst().resume()
        }
    }
}
