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

/// A coordinator runs one command: it drives its view model, writes through `IOStreams`, and returns an exit status.
package protocol Coordinator: Sendable {
    func run() async -> Int32
}

/// Turns argv into a route without side effects, so that it can be tested with tables of arguments.
package protocol Router: Sendable {
    associatedtype Route
    func route(_ arguments: [String]) -> Route
}
