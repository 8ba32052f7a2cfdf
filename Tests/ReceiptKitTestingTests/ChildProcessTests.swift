import Foundation
import ReceiptKitTesting
import Testing

/// The tests' way to run a child: its output, its status, and a time limit that ends a child that hangs.
@Suite("Child processes")
struct ChildProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test("the output, standard error interleaved, the exit status, and standard input as given")
    func outputStatusAndInput() async throws {
        let output = try await ChildProcess.run(Self.shell, ["-c", "cat; echo err >&2; exit 3"], input: Data("in\n".utf8))
        #expect(output.status == 3)
        #expect(output.text == "in\nerr\n")
    }

    @Test("a child past its time limit is killed and named in the error")
    func aHangingChildIsKilled() async throws {
        let started = ContinuousClock.now
        do {
            _ = try await ChildProcess.run(Self.shell, ["-c", "echo waiting; exec sleep 60"], timeLimit: .seconds(1))
            Issue.record("a child that sleeps for 60 s returned within its 1 s limit")
        } catch let timeout as ChildProcess.Timeout {
            #expect(timeout.command == "/bin/sh -c echo waiting; exec sleep 60")
            #expect(timeout.output == "waiting\n")
        }
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test("a child's exit ends the run even while a process it started still holds the output open")
    func theExitNotTheEndOfTheOutput() async throws {
        let started = ContinuousClock.now
        let output = try await ChildProcess.run(Self.shell, ["-c", "sleep 60 & echo started"])
        #expect(output.status == 0)
        #expect(output.text == "started\n")
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
