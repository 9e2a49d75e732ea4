/// The output-agnostic state a view model exposes to its coordinator.
package enum ViewState<Value: Sendable>: Sendable {
    case idle
    case loading
    case loaded(Value)
    case failed(any Error & Sendable)

    package var value: Value? {
        if case .loaded(let value) = self { return value }
        return nil
    }
}
