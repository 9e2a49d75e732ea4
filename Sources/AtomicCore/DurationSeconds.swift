extension Duration {
    /// The duration as a number of seconds, for arithmetic with `Date` and for messages. One conversion for
    /// the whole project, so no copy can drift (or round the attoseconds differently).
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
