import ArgumentParser

/// `--shard i/n`: run the i-th of n parts of a job (1 ≤ i ≤ n), so that n machines or
/// processes split it. (A minimal form until the report branch's shared option lands.)
struct ShardOption: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    /// 1-based.
    let index: Int
    let count: Int

    init?(argument: String) {
        let parts = argument.split(separator: "/").map(String.init)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Whether item `n` (0-based) of the job is this shard's.
    func owns(_ n: Int) -> Bool { n % count == index - 1 }

    var description: String { "\(index)/\(count)" }

    static var defaultValueDescription: String { "1/1" }
}
