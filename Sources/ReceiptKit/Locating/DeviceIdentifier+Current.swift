#if canImport(UIKit) && !os(watchOS)
public import UIKit

extension DeviceIdentifier {
    /// This device's `identifierForVendor`, the identifier iOS receipts hash; `nil` before the device is unlocked
    /// after a restart.
    @MainActor
    public static var current: DeviceIdentifier? {
        UIDevice.current.identifierForVendor.map { DeviceIdentifier(uuid: $0) }
    }
}
#elseif os(macOS)
import Foundation
import IOKit

extension DeviceIdentifier {
    /// The MAC address of this Mac's primary network interface (`en0`), the identifier macOS receipts hash.
    public static var current: DeviceIdentifier? {
        guard let matching = IOBSDNameMatching(kIOMainPortDefault, 0, "en0") else { return nil }
        var iterator: io_iterator_t = 0
        guard IOServiceGetMatchingServices(kIOMainPortDefault, matching, &iterator) == KERN_SUCCESS else {
            return nil
        }
        defer { IOObjectRelease(iterator) }
        var service = IOIteratorNext(iterator)
        while service != 0 {
            var parent: io_object_t = 0
            let found: Data?
            if IORegistryEntryGetParentEntry(service, kIOServicePlane, &parent) == KERN_SUCCESS {
                found = IORegistryEntryCreateCFProperty(parent, "IOMACAddress" as CFString, kCFAllocatorDefault, 0)?
                    .takeRetainedValue() as? Data
                IOObjectRelease(parent)
            } else {
                found = nil
            }
            IOObjectRelease(service)
            if let found { return DeviceIdentifier(bytes: [UInt8](found)) }
            service = IOIteratorNext(iterator)
        }
        return nil
    }
}
#endif
