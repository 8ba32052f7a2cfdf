import ReceiptService
import Testing

/// The configuration file's timeout settings: seconds, from a millisecond to an hour, applied to the millisecond.
@Suite struct ServiceConfigurationFileTests {
    static let keys = ["request_timeout_seconds", "health_timeout_seconds"]

    static func applied(_ key: String, _ seconds: String) throws -> Duration {
        var configuration = VerifyReceiptConfiguration()
        try ServiceConfigurationFile(json: Array("{\"\(key)\": \(seconds)}".utf8)).apply(to: &configuration)
        return key == "health_timeout_seconds" ? configuration.healthTimeout : configuration.requestTimeout
    }

    @Test(arguments: keys)
    func aTimeoutIsAppliedToTheMillisecond(key: String) throws {
        #expect(try Self.applied(key, "0.5") == .milliseconds(500))
        #expect(try Self.applied(key, "0.001") == .milliseconds(1))
        #expect(try Self.applied(key, "2.0006") == .milliseconds(2001))
        #expect(try Self.applied(key, "3600") == .seconds(3600))
    }

    @Test(arguments: keys)
    func aTimeoutOutOfRangeIsRefused(key: String) throws {
        for seconds in ["0", "0.0004", "-1", "3600.5", "1e9"] {
            let refused = #expect(throws: ServiceConfigurationFile.Failure.self) { try Self.applied(key, seconds) }
            #expect(refused?.description == "\(key) must be in [0.001, 3600]", "\(key): \(seconds)")
        }
    }
}
