import Foundation
import Testing

@testable import ReceiptKit
import _ReceiptKitShared

/// The Pacific-time rules the verifyReceipt JSON dates use.
@Suite struct PacificTimeTests {
    /// The US daylight-saving rules agree with the time-zone database at every transition from 1987 through 2099
    /// (one millisecond and one hour either side) and at noon on every day of a few sample years.
    @Test func pacificRulesAgreeWithTheTimeZoneDatabase() throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        var instant = Date(epochMilliseconds: 536_457_600_000)
        let end = Date(epochMilliseconds: 4_102_444_800_000)
        var transitions = 0
        while let next = zone.nextDaylightSavingTimeTransition(after: instant), next < end {
            let ms = next.epochMilliseconds
            for probe in [ms - 3_600_000, ms - 1, ms, ms + 1, ms + 3_600_000] {
                let expected = zone.secondsFromGMT(for: Date(epochMilliseconds: probe))
                #expect(PacificTime.ruleOffset(epochMilliseconds: probe) == expected, "\(Date(epochMilliseconds: probe))")
            }
            transitions += 1
            instant = next
        }
        #expect(transitions == 2 * 113)
        for year in [1987, 2006, 2007, 2026, 2099] {
            let start = Int64(CivilTime.daysFromCivil(year: year, month: 1, day: 1)) * 86_400_000 + 20 * 3_600_000
            for day in 0..<365 {
                let probe = start + Int64(day) * 86_400_000
                #expect(PacificTime.ruleOffset(epochMilliseconds: probe) == zone.secondsFromGMT(for: Date(epochMilliseconds: probe)))
            }
        }
        #expect(PacificTime.ruleOffset(epochMilliseconds: 536_457_599_999) == nil)
        #expect(PacificTime.ruleOffset(epochMilliseconds: 4_102_444_800_000) == nil)
    }
}
