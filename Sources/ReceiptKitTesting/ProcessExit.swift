#if os(Linux) || os(macOS)
package import Foundation

/// The exit of a child process, told by its termination handler rather than by `Process.waitUntilExit()`.
///
/// `waitUntilExit()` polls the calling thread's run loop for the termination, and off the main thread on Linux it has
/// been seen elsewhere to wait forever for a child that had long exited (a suite that hung after a few hundred runs).
/// The handler is set before the child starts, so a child that exits at once is not missed either. Foundation still
/// learns of the exit through a socket the child inherits, so a daemon the child leaves behind delays it: for
/// children that may start others, ``ChildProcess`` (posix_spawn and waitpid) is the way.
package final class ProcessExit: Sendable {
    private let exited = DispatchSemaphore(value: 0)

    /// Watches `process`; call before `process.run()` (it takes the process's termination handler).
    package init(watching process: Process) {
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
    }

    /// Waits until the child has exited.
    package func wait() {
        self.exited.wait()
        self.exited.signal()  // later waits return at once
    }
}
#endif
