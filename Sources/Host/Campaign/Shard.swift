/// One part of a campaign split across machines: shard `index` of `count` (0-based, as
/// Kubernetes numbers an indexed Job's pods in `JOB_COMPLETION_INDEX`), written `index/count`
/// on the command line (`--shard 3/8`).
///
/// The work of a campaign is numbered 0, 1, 2, … (the iterations of `stress`, the samples of a
/// `bench` figure). Item `k` belongs to shard `k mod count`, and whatever an item does depends
/// only on the campaign's seed and `k` — never on the shard — so the shards together do exactly
/// the work of the unsharded campaign, each item once, and any item can be replayed alone.
///
/// ```swift
/// let shard = try Shard(parsing: "3/8")
/// for iteration in shard.items(of: 10_000) { … }   // 3, 11, 19, …
/// ```
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// This shard's number, `0 ..< count`.
    public let index: Int
    /// How many shards the campaign has.
    public let count: Int

    /// The whole campaign as one shard.
    public static let whole = Shard(uncheckedIndex: 0, count: 1)

    /// Shard `index` of `count`.
    ///
    /// - Throws: ``ShardError`` unless `count ≥ 1` and `0 ≤ index < count`.
    public init(index: Int, count: Int) throws(ShardError) {
        guard count >= 1 else { throw ShardError(description: "a campaign has at least one shard (got \(count))") }
        guard (0..<count).contains(index) else {
            throw ShardError(
                description:
                    "shard \(index) of \(count) does not exist: shards are numbered 0 to \(count - 1) (JOB_COMPLETION_INDEX numbering)")
        }
        self.index = index
        self.count = count
    }

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `"3/8"` → shard 3 of 8.
    ///
    /// - Throws: ``ShardError`` with what is wrong, for a person.
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ShardError(
                description:
                    "\(text.debugDescription) is not a shard: write INDEX/COUNT, for example 0/8 (INDEX from 0, as JOB_COMPLETION_INDEX)")
        }
        try self.init(index: index, count: count)
    }

    /// Whether item `k` of the campaign is this shard's.
    public func owns(_ k: Int) -> Bool {
        k % count == index
    }

    /// This shard's items among the campaign's `total`: `index`, `index + count`, ….
    public func items(of total: Int) -> StrideTo<Int> {
        stride(from: index, to: max(total, index), by: count)
    }

    /// How many of the campaign's `total` items are this shard's.
    public func share(of total: Int) -> Int {
        total <= index ? 0 : (total - index + count - 1) / count
    }

    /// `3/8`
    public var description: String { "\(index)/\(count)" }
}

/// A shard that cannot be: the description says why.
public struct ShardError: Error, CustomStringConvertible {
    public let description: String
}
