import ArgumentParser
import SandglassHost
import SandglassReport

/// `--shard INDEX/COUNT`: this process does shard INDEX (from 0) of a campaign split COUNT
/// ways — item `k` (an iteration of `stress`, a sample of a `bench` figure) is done by shard
/// `k mod COUNT`, and depends only on the campaign's seed and `k`, so the shards together do
/// exactly the unsharded campaign (see ``Shard``). In a Kubernetes indexed Job:
/// `--shard $(JOB_COMPLETION_INDEX)/8`.
///
/// A command adds it with `@Option(help: ShardOption.help) var shard: ShardOption?`.
struct ShardOption: ExpressibleByArgument, Sendable, CustomStringConvertible {
    let shard: Shard

    init?(argument: String) {
        guard let shard = try? Shard(parsing: argument) else { return nil }
        self.shard = shard
    }

    /// The help text every command that takes `--shard` shows.
    static let help = ArgumentHelp(
        "Do shard INDEX of COUNT of the campaign (INDEX from 0, as JOB_COMPLETION_INDEX): item k is done by shard k mod COUNT.",
        valueName: "index/count")

    var description: String { shard.description }

    static var defaultCompletionKind: CompletionKind { .default }
}
