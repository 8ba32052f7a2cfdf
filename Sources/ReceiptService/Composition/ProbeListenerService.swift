import NIOCore
import ServiceLifecycle

/// The probes' application as a service of the main one, whose socket errors say they are the probes' (a
/// ``ProbeListenerFailure``): `serve` then names `metrics_listen`'s address, not the main listener's.
struct ProbeListenerService: Service {
    let application: any Service
    let listener: ProbeListener

    func run() async throws {
        do {
            try await self.application.run()
        } catch let error as IOError {
            throw ProbeListenerFailure(listener: self.listener, underlying: error)
        }
    }
}
