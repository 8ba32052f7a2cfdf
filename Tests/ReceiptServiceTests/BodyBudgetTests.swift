import Foundation
import NIOCore
import ReceiptKit
import Testing

@testable import ReceiptService

/// The in-flight body budget against a patient attacker (issue 44 §1): bytes counted as they arrive, a share per
/// peer address, a stall timeout, and a reserve for bodies that arrive whole. The attacks fill the budget exactly,
/// from one address and from eight, while another client's requests keep being answered.
@Suite("Body budget")
struct BodyBudgetTests {
    typealias C = ConnectionLimitTests

    // MARK: - The budget's rules

    /// A budget of 1,000 bytes: 250 reserved, 400 a share, bodies of at most 100.
    static func budget() -> BodyBudget {
        BodyBudget(limit: 1000, reservePercent: 25, addressShare: 400, largestBody: 100)
    }

    @Test("one address holds at most its share; other addresses still take the rest")
    func anAddressHoldsItsShare() {
        let budget = Self.budget()
        var first = BodyBudget.Holding(address: "192.0.2.1")
        for _ in 0..<4 { #expect(budget.take(100, for: &first, mayBorrow: false) == .success(.general)) }
        #expect(budget.take(1, for: &first, mayBorrow: true) == .failure(.addressShare))
        #expect(budget.refusal(for: "192.0.2.1", bytes: 1, mayBorrow: true) == .addressShare)
        var second = BodyBudget.Holding(address: "192.0.2.2")
        #expect(budget.refusal(for: "192.0.2.2", bytes: 100, mayBorrow: false) == nil)
        #expect(budget.take(300, for: &second, mayBorrow: false) == .success(.general))
        #expect(first.general == 400 && second.general == 300 && budget.held == 700)
    }

    @Test("bodies still arriving fill only the general part; the reserve is for bodies that may borrow")
    func theReserveIsKeptFromPartialBodies() {
        let budget = Self.budget()
        var holdings = (1...3).map { BodyBudget.Holding(address: "192.0.2.\($0)") }
        #expect(budget.take(300, for: &holdings[0], mayBorrow: false) == .success(.general))
        #expect(budget.take(300, for: &holdings[1], mayBorrow: false) == .success(.general))
        #expect(budget.take(150, for: &holdings[2], mayBorrow: false) == .success(.general))
        // 750 held: the general part is full.
        #expect(budget.take(1, for: &holdings[2], mayBorrow: false) == .failure(.full))
        var whole = BodyBudget.Holding(address: "192.0.2.9")
        #expect(budget.refusal(for: "192.0.2.9", bytes: 250, mayBorrow: true) == nil)
        #expect(budget.refusal(for: "192.0.2.9", bytes: 251, mayBorrow: true) == .full)
        #expect(budget.refusal(for: "192.0.2.9", bytes: 1, mayBorrow: false) == .full)  // chunked: no reserve
        #expect(budget.take(250, for: &whole, mayBorrow: true) == .success(.reserve))
        #expect(whole.borrows && whole.reserve == 250)
        var next = BodyBudget.Holding(address: "192.0.2.10")
        #expect(budget.refusal(for: "192.0.2.10", bytes: 1, mayBorrow: true) == .full)
        #expect(budget.take(1, for: &next, mayBorrow: true) == .failure(.full))
        // Given back, the reserve serves the next.
        budget.give(back: whole)
        #expect(budget.held == 750)
        #expect(budget.take(100, for: &next, mayBorrow: true) == .success(.reserve))
        for holding in holdings { budget.give(back: holding) }
        budget.give(back: next)
        #expect(budget.held == 0)
        // Everything given back: the address shares too.
        var again = BodyBudget.Holding(address: "192.0.2.1")
        #expect(budget.take(400, for: &again, mayBorrow: false) == .success(.general))
    }

    @Test("the reserve never keeps a body of the largest size out; a share is never below it; a body alone fits")
    func limitsAreNeverBelowOneBody() {
        let tight = BodyBudget(limit: 1000, reservePercent: 90, addressShare: 10, largestBody: 400)
        #expect(tight.reserveSize == 600)
        #expect(tight.addressShare == 400)
        let small = BodyBudget(limit: 100, reservePercent: 25, addressShare: 100, largestBody: 100)
        var alone = BodyBudget.Holding(address: "192.0.2.1")
        #expect(small.take(100, for: &alone, mayBorrow: false) == .success(.general))
        var other = BodyBudget.Holding(address: "192.0.2.2")
        #expect(small.take(1, for: &other, mayBorrow: true) == .failure(.full))
    }

    @Test("a peer's share is counted by its IPv4 address, or its IPv6 /64; an IPv4-mapped address is its IPv4 one")
    func sharesAreKeyedByHostNotSocket() throws {
        #expect(PeerAddress.shareKey(try SocketAddress(ipAddress: "192.0.2.7", port: 1)) == "192.0.2.7")
        let one = PeerAddress.shareKey(try SocketAddress(ipAddress: "2001:db8:1:2::1", port: 1))
        let other = PeerAddress.shareKey(try SocketAddress(ipAddress: "2001:db8:1:2:ffff::9", port: 2))
        #expect(one == "2001:db8:1:2::/64" && one == other)
        #expect(PeerAddress.shareKey(try SocketAddress(ipAddress: "2001:db8:1:3::1", port: 1)) != one)
        #expect(PeerAddress.shareKey(try SocketAddress(ipAddress: "::ffff:192.0.2.7", port: 1)) == "192.0.2.7")
        #expect(PeerAddress.shareKey(nil) == "unknown")
    }

    @Test("a body stalls at its last chunk plus the stall timeout, or its first borrowed byte plus the borrow window")
    func stallDeadlines() {
        let start = ContinuousClock.now
        let deadline = { (borrowed: Duration?) in
            StallWatch.deadline(
                lastChunk: start + .seconds(2), borrowedSince: borrowed.map { start + $0 }, stallTimeout: .seconds(3),
                borrowWindow: .milliseconds(250))
        }
        #expect(deadline(nil) == start + .seconds(5))
        #expect(deadline(.seconds(1)) == start + .milliseconds(1250))
        #expect(
            StallWatch.deadline(
                lastChunk: start, borrowedSince: start, stallTimeout: .milliseconds(100), borrowWindow: .milliseconds(250))
                == start + .milliseconds(100))
    }

    // MARK: - Attacks on a live service

    /// Opens `count` uploads from `source`, each announcing `declared` bytes and sending `sent` of them, then
    /// holding.
    static func stall(
        port: Int, from source: String, count: Int, declared: Int, sent: Int, route: String = "/verifyReceipt"
    ) async throws -> [RawConnection] {
        var connections: [RawConnection] = []
        let head = Array("POST \(route) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(declared)\r\n\r\n".utf8)
        for _ in 0..<count {
            let connection = try RawConnection(port: port, from: source)
            await connection.sendAside(head + Array(repeating: UInt8(ascii: "A"), count: sent))
            connections.append(connection)
        }
        return connections
    }

    /// Returns once `/metrics` shows at least `bytes` of bodies held (a minute at most).
    static func waitForBodyBytes(port: Int, atLeast bytes: Int) async throws {
        for _ in 0..<600 {
            if C.value(try await C.metrics(port: port), "receiptkit_request_body_bytes") >= Double(bytes) { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the bodies were not read within a minute")
    }

    /// Each connection's answer (the status line's code, 0 for none) once the server answers or closes it.
    static func statuses(_ connections: [RawConnection], timeout: TimeInterval) async -> [Int] {
        await withTaskGroup(of: Int.self) { group in
            for connection in connections {
                group.addTask {
                    let text = await connection.read(timeout: timeout).text
                    return Int(text.dropFirst("HTTP/1.1 ".count).prefix(3)) ?? 0
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("22 uploads announcing exactly the whole budget, headers alone, hold nothing: others keep being answered")
    func announcedLengthsHoldNothing() async throws {
        // The defaults' budget (64 MiB), and the attack that filled it: lengths adding up to it exactly.
        let budget = VerifyReceiptConfiguration().maximumInFlightBodyBytes
        let each = budget / 22
        try await C.withService({ _ in }) { port in
            var held: [RawConnection] = []
            for index in 0..<22 {
                let declared = index == 21 ? budget - 21 * each : each
                let connection = try RawConnection(port: port, from: "127.0.0.2")
                connection.send(C.head + "Content-Length: \(declared)\r\n\r\n")
                held.append(connection)
            }
            try await Task.sleep(for: .milliseconds(300))
            for _ in 0..<3 { #expect(try await C.stillAnswers(port: port)) }
            let notification = try await RawHTTP.exchange(
                port: port,
                head: "POST /notifications/v2 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n",
                body: Array("{}".utf8), timeout: 30)
            #expect(notification.hasPrefix("HTTP/1.1 400"), "\(notification.prefix(200))")
            let metrics = try await C.metrics(port: port)
            #expect(C.value(metrics, #"receiptkit_http_rejections_total{code="503"}"#) == 0)
            withExtendedLifetime(held) {}
        }
    }

    /// A scaled service: bodies of at most 128 KiB, a budget of 2 MiB (512 KiB reserved), 512 KiB an address.
    static func scaled(_ configuration: inout VerifyReceiptConfiguration) {
        configuration.maximumBodySize = 128 * 1024
        configuration.maximumInFlightBodyBytes = 2 * 1024 * 1024
        configuration.maximumInFlightBodyBytesPerAddress = 512 * 1024
        configuration.bodyReservePercent = 25
        configuration.bodyStallTimeout = .seconds(5)
    }

    @Test("stalled uploads from one address fill its share only, are cut at the stall timeout, and others are answered")
    func oneAddressFillingTheBudget() async throws {
        try await C.withService({
            Self.scaled(&$0)
            $0.bodyStallTimeout = .seconds(30)  // none of the five cut before the last upload is set up, however busy
        }) { port in
            // 16 × 128 KiB announced: exactly the budget. Each sends 96 KiB and stalls: five fit the share.
            // The first five one by one, each read before the next is sent (two uploads whose chunks met at the
            // share's edge would both be refused, and fewer held); the other eleven at once.
            var attack: [RawConnection] = []
            for held in 1...5 {
                attack += try await Self.stall(port: port, from: "127.0.0.2", count: 1, declared: 128 * 1024, sent: 96 * 1024)
                try await Self.waitForBodyBytes(port: port, atLeast: held * 96 * 1024)
            }
            attack += try await Self.stall(port: port, from: "127.0.0.2", count: 11, declared: 128 * 1024, sent: 96 * 1024)
            // Another body from the address (32 KiB of its share left) is refused before it is read when its
            // first read's worth (64 KiB) does not fit: no `100 Continue`, the notification route's own JSON.
            let refused = try await RawHTTP.exchange(
                port: port,
                head: "POST /notifications/v2 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(64 * 1024)\r\n"
                    + "Expect: 100-continue\r\n\r\n",
                body: [], timeout: 30, from: "127.0.0.2")
            #expect(refused.hasPrefix("HTTP/1.1 503"), "\(refused.prefix(200))")
            #expect(refused.lowercased().contains("retry-after: 1"))
            #expect(refused.contains(#""reasons":["body_budget_exhausted"]"#))
            // Everyone else: answered, small bodies and one of the largest size alike.
            for _ in 0..<3 { #expect(try await C.stillAnswers(port: port)) }
            #expect(try await Self.wholeBodyIsAnswered(port: port))
            // The attack: five held until the stall timeout (408), the other eleven refused at once (503).
            let statuses = await Self.statuses(attack, timeout: 60)
            #expect(statuses.filter { $0 == 408 }.count == 5, "\(statuses)")
            #expect(statuses.filter { $0 == 503 }.count == 11, "\(statuses)")
            let metrics = try await C.metrics(port: port)
            #expect(C.value(metrics, #"receiptkit_connections_closed_total{reason="body_stalled"}"#) == 5)
            #expect(C.value(metrics, "receiptkit_request_body_bytes") == 0)
        }
    }

    @Test("stalled uploads from eight addresses fill the budget but the reserve: bodies sent whole are answered")
    func eightAddressesFillingTheBudget() async throws {
        try await C.withService({
            Self.scaled(&$0)
            $0.bodyStallTimeout = .seconds(15)  // 48 uploads to set up on a busy machine: none cut before the last
        }) { port in
            // 8 addresses × 6 uploads of 96 KiB: 4.5 MiB offered to a budget of 2 MiB. The general 1.5 MiB fills;
            // uploads that borrow from the reserve and stall are cut within 250 ms.
            var attack: [RawConnection] = []
            for host in 2...9 {
                attack += try await Self.stall(
                    port: port, from: "127.0.0.\(host)", count: 6, declared: 128 * 1024, sent: 96 * 1024)
            }
            // The general part fills (16 × 96 KiB, give or take a chunk); borrowers are cut within 250 ms.
            try await Self.waitForBodyBytes(port: port, atLeast: 15 * 96 * 1024)
            try await Task.sleep(for: .seconds(1))
            // Never more than the budget.
            #expect(C.value(try await C.metrics(port: port), "receiptkit_request_body_bytes") <= 2048 * 1024)
            for _ in 0..<3 { #expect(try await C.stillAnswers(port: port)) }
            // A body sent whole: it arrives in several chunks, the first few borrowed from the reserve.
            #expect(try await Self.wholeBodyIsAnswered(port: port))
            let statuses = await Self.statuses(attack, timeout: 60)
            // Cut at the stall timeout (those the general part held, and those that borrowed and stalled) or
            // refused at the chunk that did not fit.
            #expect(statuses.allSatisfy { $0 == 408 || $0 == 503 }, "\(statuses)")
            #expect(statuses.contains(503), "\(statuses)")
            let metrics = try await C.metrics(port: port)
            let stalled = C.value(metrics, #"receiptkit_connections_closed_total{reason="body_stalled"}"#)
            #expect(stalled == Double(statuses.filter { $0 == 408 }.count))
            #expect(stalled >= 16)
        }
    }

    @Test("a body that stops arriving is answered 408 at the stall timeout, well before the request timeout")
    func aStalledBodyIsCutOff() async throws {
        try await C.withService({
            $0.bodyStallTimeout = .milliseconds(500)
            $0.requestTimeout = .seconds(60)
        }) { port in
            let connection = try RawConnection(port: port)
            connection.send(C.head + "Content-Length: 100\r\n\r\n{\"receipt-data\":")
            let (text, closed) = await connection.read(timeout: 30)
            #expect(text.hasPrefix("HTTP/1.1 408"), "\(text.prefix(200))")
            #expect(closed)
            let metrics = try await C.metrics(port: port)
            #expect(C.value(metrics, #"receiptkit_connections_closed_total{reason="body_stalled"}"#) == 1)
            #expect(C.value(metrics, #"receiptkit_connections_closed_total{reason="body_timeout"}"#) == 0)
        }
    }

    /// Whether a `/verifyReceipt` body of 120 KiB, sent whole (it arrives in several chunks), is answered: valid
    /// JSON whose receipt is not one (21002).
    static func wholeBodyIsAnswered(port: Int) async throws -> Bool {
        let size = 120 * 1024
        let prefix = Array(#"{"receipt-data":""#.utf8)
        let suffix = Array(#""}"#.utf8)
        let body = prefix + Array(repeating: UInt8(ascii: "A"), count: size - prefix.count - suffix.count) + suffix
        let answer = try await RawHTTP.exchange(
            port: port, head: C.head + "Content-Length: \(size)\r\nConnection: close\r\n\r\n", body: body,
            timeout: 30)
        return answer.hasPrefix("HTTP/1.1 200") && answer.contains(#""status":21002"#)
    }
}
