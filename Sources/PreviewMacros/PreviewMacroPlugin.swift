#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The compiler plugin behind the SDK's `#Preview` macros, speaking the compiler's plugin
/// protocol itself (no swift-syntax): the compiler starts it with `-load-plugin-executable`,
/// sends framed JSON requests on its standard input and reads the replies on its standard
/// output until it closes the pipe.
@main
enum PreviewMacroPlugin {
    static func main() {
        let reader = PluginFrameReader(descriptor: STDIN_FILENO)
        let writer = PluginFrameWriter(descriptor: STDOUT_FILENO)
        var session = PluginSession()
        do {
            while let request = try reader.next() {
                try writer.send(try session.reply(toPayload: request))
            }
        } catch {
            // The compiler shows the plugin's standard error when the plugin fails.
            let report = Array("SandglassPreviewMacros: \(error)\n".utf8)
            _ = report.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            exit(1)
        }
    }
}
