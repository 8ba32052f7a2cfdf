import Foundation
import Testing
import _ReceiptKitShared

/// The package's one set of time conversions: total on every input (saturating, never trapping), exact where the
/// value fits.
@Suite("Time conversions")
struct TimeConversionTests {
    @Test func durationsBecomeSecondsAndMilliseconds() {
        #expect(DurationConversion.seconds(.milliseconds(1500)) == 1.5)
        #expect(DurationConversion.milliseconds(.milliseconds(1500)) == 1500)
        #expect(DurationConversion.milliseconds(.microseconds(1999)) == 1)  // truncated toward zero
        #expect(DurationConversion.milliseconds(.seconds(Int64.max)) == .max)
        #expect(DurationConversion.milliseconds(.seconds(Int64.min)) == .min)
    }

    @Test func secondsBecomeADurationToTheMillisecond() {
        #expect(DurationConversion.duration(seconds: 2.0006) == .milliseconds(2001))
        #expect(DurationConversion.duration(seconds: 0.0004) == .zero)
        #expect(DurationConversion.duration(seconds: 0.0001, rounding: .up) == .milliseconds(1))
        #expect(DurationConversion.duration(seconds: .nan) == .zero)
        #expect(DurationConversion.duration(seconds: .infinity) == .seconds(1_000_000_000_000))
        #expect(DurationConversion.duration(seconds: -1e300) == .seconds(-1_000_000_000_000))
    }

    @Test func datesBecomeEpochMillisecondsAndBack() {
        let date = Date(timeIntervalSince1970: 1_750_000_000.1234)
        #expect(EpochMilliseconds.of(date) == 1_750_000_000_123)
        #expect(EpochMilliseconds.exactly(date) == 1_750_000_000_123)
        #expect(EpochMilliseconds.date(1_750_000_000_123) == Date(timeIntervalSince1970: 1_750_000_000.123))
        #expect(EpochMilliseconds.date(fractional: 1500.5) == Date(timeIntervalSince1970: 1.5005))
        // Out of range: clamped by one, refused by the other.
        let far = Date(timeIntervalSince1970: 1e300)
        #expect(EpochMilliseconds.of(far) == .max)
        #expect(EpochMilliseconds.exactly(far) == nil)
        #expect(EpochMilliseconds.exactly(Date(timeIntervalSince1970: -1e13)) == nil)
    }
}
