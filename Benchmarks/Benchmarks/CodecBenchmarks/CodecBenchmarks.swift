import Benchmark
import SandglassIPC

/// The messages of a refresh as the host and the SDK exchange them.
enum Samples {
    static let context = ActivationContext(
        kind: "Leaderboard", family: "systemSmall", isPreview: false,
        displayWidth: 170, displayHeight: 170)
    static let request = Message.timelineRequest(RequestID(42), context)

    /// Six entries of about 120 bytes of JSON each, with their text, `.atEnd`: a Leaderboard reply.
    static let reply: Message = {
        let entries = (0..<6).map { i in
            EntryPayload(
                date: 1_790_000_000 + Double(i) * 600,
                json: Array(
                    "{\"date\":\(1_790_000_000 + i * 600),\"leader\":\"Team \(i)\",\"points\":\(40 + i),\"games\":[1,2,3,4,5]}".utf8),
                text: "Team \(i) leads with \(40 + i) points")
        }
        return .timelineReply(RequestID(42), TimelinePayload(entries: entries, policy: .atEnd))
    }()

    static let ping = Message.ping(7)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        maxDuration: .seconds(2), maxIterations: 1_000_000)

    for (name, message) in [("timeline request", Samples.request), ("timeline reply (6 entries)", Samples.reply), ("ping", Samples.ping)] {
        Benchmark("encode \(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(Frame.encode(message))
            }
        }
        let frame = Frame.encode(message)
        Benchmark("decode \(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                var decoder = FrameDecoder()
                decoder.append(frame)
                blackHole(try decoder.next())
            }
        }
    }

    // The host's read path: 64 KiB reads cutting frames anywhere, decoded as they complete.
    let stream = (0..<200).flatMap { _ in Frame.encode(Samples.reply) + Frame.encode(Samples.ping) }
    Benchmark("decoder: 400 frames from 64 KiB reads", configuration: .init(scalingFactor: .one)) { benchmark in
        for _ in benchmark.scaledIterations {
            var decoder = FrameDecoder()
            var offset = 0
            var count = 0
            while offset < stream.count {
                let end = min(offset + 65_536, stream.count)
                decoder.append(stream[offset..<end])
                while let message = try decoder.next() {
                    blackHole(message)
                    count += 1
                }
                offset = end
            }
            precondition(count == 400)
        }
    }
}
