/// The package's conversions between `Duration` and plain numbers — seconds as a `Double`, whole milliseconds — each
/// total: no input traps, out-of-range values saturate.
package enum DurationConversion {
    /// `duration` in seconds.
    package static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `duration` in whole milliseconds (truncated toward zero), saturating at the `Int64` range.
    package static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (total, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        guard !sumOverflow else { return whole < 0 ? .min : .max }
        return total
    }

    /// The largest magnitude ``duration(seconds:rounding:)`` gives: 10¹² seconds, about 31,700 years.
    package static let maximumSeconds = 1e12

    /// `seconds` as a duration in whole milliseconds, rounded by `rule`; clamped to ±``maximumSeconds``, and zero
    /// for a number that is not a number.
    package static func duration(
        seconds: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) -> Duration {
        guard !seconds.isNaN else { return .zero }
        let clamped = min(max(seconds, -Self.maximumSeconds), Self.maximumSeconds)
        return .milliseconds(Int64((clamped * 1000).rounded(rule)))
    }
}
