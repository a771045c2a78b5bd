// Writes the IPC fuzzer's seed corpus: one frame of each sample message (Tests/IPCTests/Samples.swift),
// preceded by the read-size byte, and a few streams of several frames. `make fuzz-seeds`.
import Foundation
import SandglassIPC

@main
enum SeedWriter {
    static func main() throws {
        let directory = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Fuzz/corpus/ipc"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var written = 0
        func write(_ name: String, _ bytes: [UInt8]) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
            written += 1
        }
        let all = Samples.all
        for (index, message) in all.enumerated() {
            try write(String(format: "frame-%03d-%@", index, "\(message.type)"), [0] + Frame.encode(message))
        }
        // Streams: several frames, read 1, 3 and 7 bytes at a time.
        for (n, step) in [1, 3, 7].enumerated() {
            let frames = all.enumerated().filter { $0.offset % 5 == n }.flatMap { Frame.encode($0.element) }
            try write("stream-\(n)-step-\(step)", [UInt8(step)] + frames)
        }
        print("wrote \(written) seeds to \(directory)")
    }
}
