/// How much a bench run measures: `full` for the figures a user compares, `quick` (`--quick`)
/// for a look in a minute or two, `smoke` (`--smoke`, for the tests) for a few samples of each
/// figure — enough to check every output is written, never to read the figures.
enum BenchSize: Sendable {
    case smoke, quick, full

    /// The value for this size.
    func choose<T>(smoke: T, quick: T, full: T) -> T {
        switch self {
        case .smoke: smoke
        case .quick: quick
        case .full: full
        }
    }
}
