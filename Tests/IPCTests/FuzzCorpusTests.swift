import Foundation
import SandglassIPC
import Testing

/// Every input kept in Fuzz/corpus/ipc — the seeds and each crash the fuzzer found — decodes
/// as the fuzz target decodes it, without a trap: messages survive a round trip, anything else
/// is a protocol error. `make fuzz` runs the fuzzer itself; this keeps its findings fixed.
@Suite("Fuzz corpus: IPC decoder")
struct FuzzCorpusTests {
    static var corpus: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/corpus/ipc").path
    }

    /// What the fuzz target does with one input: the stream cut into reads of the size the first
    /// byte picks, every message re-encoded and decoded again. Returns the messages and the error.
    static func decode(_ input: [UInt8]) -> (messages: [Message], error: ProtocolError?) {
        guard let first = input.first else { return ([], nil) }
        let step = Int(first & 0x1F)
        let stream = input.dropFirst()
        var decoder = FrameDecoder(maximumLength: 1 << 16)
        var messages: [Message] = []
        var offset = stream.startIndex
        while offset < stream.endIndex {
            let end = step == 0 ? stream.endIndex : min(stream.endIndex, offset + step)
            decoder.append(stream[offset..<end])
            offset = end
            do {
                while let message = try decoder.next() { messages.append(message) }
            } catch {
                return (messages, error)
            }
        }
        return (messages, nil)
    }

    @Test("every input of the corpus decodes or is refused, and messages survive a round trip")
    func wholeCorpus() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).sorted()
        #expect(names.count >= 100, "the seed corpus is in the repository")
        for name in names {
            let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + name)))
            let (messages, _) = Self.decode(input)
            for message in messages {
                let encoded = Frame.encode(message)
                var again = FrameDecoder(maximumLength: Int.max >> 1)
                again.append(encoded)
                let decoded = try #require(try again.next(), "\(name): \(message.type) does not decode after encoding")
                #expect(Frame.encode(decoded) == encoded, "\(name): \(message.type) changes in a round trip")
            }
            if name.hasPrefix("frame-") { #expect(messages.count == 1, "\(name): a seed frame decodes to one message") }
        }
    }

    @Test("regression: a task identifier over Int.max is a malformed payload, not a trap")
    func taskIdentifierOverIntMax() throws {
        let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/crash-task-identifier-over-int-max")))
        let (messages, error) = Self.decode(input)
        #expect(messages.isEmpty)
        guard case .malformedPayload(.taskCompleted, let reason, _, _)? = error else {
            Issue.record("expected a malformed taskCompleted payload, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("does not fit"))
    }

    @Test("every integer field that becomes an Int refuses values over Int.max")
    func varintsOverIntMax() {
        var w = BinaryWriter()
        w.write("feed")
        w.writeVarint(UInt64.max) // task identifier
        let frame = Wire.frame(.taskProgress, payload: w.bytes + [0, 0])
        var decoder = FrameDecoder()
        decoder.append(frame)
        #expect(throws: ProtocolError.self) { _ = try decoder.next() }
    }
}
