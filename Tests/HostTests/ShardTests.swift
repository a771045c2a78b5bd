import Testing

@testable import SandglassHost

/// `--shard i/n`: the shards of a campaign do its work exactly once between them.
@Suite("Shards")
struct ShardTests {
    @Test("INDEX/COUNT is read, numbered from 0 as JOB_COMPLETION_INDEX")
    func parsing() throws {
        let shard = try Shard(parsing: "3/8")
        #expect(shard.index == 3 && shard.count == 8)
        #expect(shard.description == "3/8")
        for bad in ["8/8", "-1/8", "1/0", "3", "a/b", "3/8/1", ""] {
            #expect(throws: ShardError.self, "\(bad)") { try Shard(parsing: bad) }
        }
        #expect(throws: ShardError.self) { try Shard(index: 2, count: 2) }
    }

    @Test("the shards split the items without overlap or gap", arguments: [(1, 10), (3, 10), (8, 8000), (7, 5), (4, 0)])
    func split(count: Int, total: Int) throws {
        var seen: [Int: Int] = [:]
        var shares = 0
        for index in 0..<count {
            let shard = try Shard(index: index, count: count)
            let items = Array(shard.items(of: total))
            #expect(items.count == shard.share(of: total))
            #expect(items.allSatisfy(shard.owns))
            shares += shard.share(of: total)
            for item in items { seen[item, default: 0] += 1 }
        }
        #expect(shares == total)
        #expect(seen.keys.sorted() == Array(0..<total))
        #expect(seen.values.allSatisfy { $0 == 1 })
    }
}
