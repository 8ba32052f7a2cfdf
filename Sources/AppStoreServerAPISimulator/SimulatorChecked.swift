/// A request's part read by ``AppStoreServerSimulator``: the value, or the Apple error that refuses it.
enum SimulatorChecked<Value> {
    case accepted(Value)
    case refused(SimulatedAPIError)
}
