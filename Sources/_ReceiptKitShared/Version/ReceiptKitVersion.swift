/// The version of this build of ReceiptKit: `receiptkit --version`, the service's `receiptkit_build_info` metric and
/// its start-up log line. A release sets it to the release's number (`0.1.0`) and adds that heading to
/// `CHANGELOG.md`; between releases it is the next one with `-dev`, and the changelog's first heading is
/// `[Unreleased]` (a test holds the two together).
package enum ReceiptKitVersion {
    package static let string = "0.1.0-dev"
}
