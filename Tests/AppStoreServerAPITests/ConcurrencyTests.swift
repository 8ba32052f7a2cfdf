@testable import AppStoreServerAPI
import APITestSupport
import AppStorePKI
import Foundation
import Testing

/// The bound on requests in flight per key.
struct ConcurrencyTests {
    @Test func requestsInFlightForOneKeyAreBounded() async throws {
        let answer = HTTPTransportResponse(status: 200, body: Array(#"{"signedTransactionInfo":"x"}"#.utf8))
        let transport = ScriptedTransport(Array(repeating: .hold(answer), count: 10))
        let key = try TestClients.key()
        func client() throws -> AppStoreServerAPIClient {
            var configuration = try AppStoreServerAPIConfiguration(
                key: key,
                bundleIdentifier: "com.example.app",
                environment: .sandbox,
                baseURL: "http://127.0.0.1:1"
            )
            configuration.maximumConcurrentRequests = 3
            return try AppStoreServerAPIClient(
                configuration: configuration,
                transport: transport,
                runtime: PinnedRuntime().runtime
            )
        }
        // Two clients of the same key share the bound.
        let clients = [try client(), try client()]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<10 {
                let client = clients[index % 2]
                group.addTask { _ = try await client.transactionInfoUnverified(transactionID: "\(index)") }
            }
            for _ in 0..<400 where transport.inFlight < 3 { try await Task.sleep(for: .milliseconds(5)) }
            try await Task.sleep(for: .milliseconds(50))
            #expect(transport.inFlight == 3)
            transport.release()
            try await group.waitForAll()
        }
        #expect(transport.requests.count == 10)
        #expect(transport.mostInFlight == 3)
    }

    @Test func timeQueuedForATurnCountsAgainstTheTotalTime() async throws {
        let clock = PinnedRuntime()
        let (client, transport, configuration) = try Self.oneTurnClient(clock)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { _ = try await client.transactionInfoUnverified(transactionID: "1") }
            for _ in 0..<400 where transport.inFlight < 1 { try await Task.sleep(for: .milliseconds(5)) }
            // The second request has started (read its start time) once the clock is read again.
            let reads = clock.clockReads
            group.addTask { _ = try await client.transactionInfoUnverified(transactionID: "2") }
            for _ in 0..<400 where clock.clockReads == reads { try await Task.sleep(for: .milliseconds(5)) }
            try await Task.sleep(for: .milliseconds(20))
            // The second request waits for the one turn while all but half a second of its total time passes.
            clock.advance(configuration.retryPolicy.maximumTotalTime / .seconds(1) - 0.5)
            transport.release()
            try await group.waitForAll()
        }
        #expect(transport.timeouts == [configuration.timeout, .milliseconds(500)])
    }

    @Test func aRequestWhoseTotalTimePassesWhileQueuedIsNotSent() async throws {
        let clock = PinnedRuntime()
        let (client, transport, configuration) = try Self.oneTurnClient(clock)
        let second = try await withThrowingTaskGroup(of: AppStoreServerAPIError?.self) { group in
            group.addTask { _ = try await client.transactionInfoUnverified(transactionID: "1"); return nil }
            for _ in 0..<400 where transport.inFlight < 1 { try await Task.sleep(for: .milliseconds(5)) }
            let reads = clock.clockReads
            group.addTask {
                do throws(AppStoreServerAPIError) {
                    _ = try await client.transactionInfoUnverified(transactionID: "2")
                    return nil
                } catch {
                    return error
                }
            }
            for _ in 0..<400 where clock.clockReads == reads { try await Task.sleep(for: .milliseconds(5)) }
            try await Task.sleep(for: .milliseconds(20))
            // All of the second request's total time passes while it waits for the one turn.
            clock.advance(configuration.retryPolicy.maximumTotalTime / .seconds(1) + 1)
            transport.release()
            var failure: AppStoreServerAPIError?
            for try await result in group { failure = failure ?? result }
            return failure
        }
        #expect(second?.code == .unreachable)
        #expect(transport.requests.count == 1)
        #expect(transport.timeouts == [configuration.timeout])
    }

    /// A client allowed one request in flight for its key, whose transport holds the first answer until released
    /// and answers the second at once.
    static func oneTurnClient(
        _ clock: PinnedRuntime
    ) throws -> (AppStoreServerAPIClient, ScriptedTransport, AppStoreServerAPIConfiguration) {
        let answer = HTTPTransportResponse(status: 200, body: Array(#"{"signedTransactionInfo":"x"}"#.utf8))
        let transport = ScriptedTransport([.hold(answer), .answer(answer)], clock: clock)
        var configuration = try AppStoreServerAPIConfiguration(
            key: try TestClients.key(),
            bundleIdentifier: "com.example.app",
            environment: .sandbox,
            baseURL: "http://127.0.0.1:1"
        )
        configuration.maximumConcurrentRequests = 1
        let client = try AppStoreServerAPIClient(configuration: configuration, transport: transport, runtime: clock.runtime)
        return (client, transport, configuration)
    }
}
