import ArgumentParser
import Foundation
import SandglassDaemon
import SandglassHost

/// `sandglass ctl`: talks to a running `sandglass serve` through its control socket.
struct CtlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Control a running daemon (`sandglass serve`): status, reload, kill, visibility, location, clock.",
        discussion: """
            Exit status: 0 when the daemon did what was asked, 1 when it answered no (or cannot be reached), 2 for bad input.

            Examples:
              sandglass ctl status
              sandglass ctl reload Leaderboard
              sandglass ctl visibility seldom
              sandglass ctl location 48.8566,2.3522
              sandglass ctl clock 6h          # a daemon started with --clock virtual
              sandglass ctl kill com.example.leaderboard.widget --reason chaos
              sandglass ctl status --control /run/sandglass.sock --json
            """,
        subcommands: [Status.self, Reload.self, Kill.self, Visibility.self, Location.self, Clock.self]
    )

    /// Options every ctl command takes.
    struct Connection: ParsableArguments {
        @Option(help: "The daemon's control socket (default: $XDG_RUNTIME_DIR/sandglass.sock, else /tmp/sandglass-UID.sock).")
        var control: String?

        @Flag(help: "Print the daemon's answer as JSON.")
        var json = false

        /// Sends `request`, prints the answer, and fails (exit 1) when the daemon said no.
        func send(_ request: ControlRequest, show: (ControlResponse) -> String = { $0.message }) throws {
            let path = control ?? ControlSocket.defaultPath
            let response: ControlResponse
            do {
                response = try ControlClient(path: path).send(request)
            } catch {
                FileHandle.standardError.write(Data("sandglass ctl: \(error.description)\n".utf8))
                throw ExitCode(1)
            }
            // What the daemon says goes to a terminal with what a terminal acts on written out,
            // line by line (a socket at the path may not be the daemon's).
            func printable(_ text: String) -> String {
                text.split(separator: "\n", omittingEmptySubsequences: false).map { TraceRenderer.printable(String($0)) }
                    .joined(separator: "\n")
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
                say(String(decoding: (try? encoder.encode(response)) ?? Data(), as: UTF8.self))
            } else if response.ok {
                say(printable(show(response)))
            } else {
                FileHandle.standardError.write(Data("sandglass ctl: \(printable(response.message))\n".utf8))
            }
            if !response.ok { throw ExitCode(1) }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The daemon's extensions, their processes and counts.")
        @OptionGroup var connection: Connection

        func run() throws {
            try connection.send(ControlRequest(command: "status")) { response in
                guard let s = response.status else { return response.message }
                let style = TerminalStyle.standardOutput
                var lines = [
                    "daemon pid \(s.pid) · up \(String(format: "%.1f", s.uptimeSeconds)) s · \(s.clock) clock at \(RunProgress.label(s.runTimeMs)) · \(s.events) events"
                ]
                for ext in s.extensions {
                    let state = ext.pid.map { style.green("running as pid \($0)") } ?? style.dim("not running")
                    lines.append("  \(ext.bundle): \(state) · \(ext.spawns) spawns · \(ext.kills) kills")
                }
                let activations = s.activations.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                let kills = s.kills.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                lines.append(
                    "activations: \(activations.isEmpty ? "none" : activations) · kills: \(kills.isEmpty ? "none" : kills) · timelines: \(s.timelines) · unacknowledged session events: \(s.unacknowledgedEvents)"
                )
                return lines.joined(separator: "\n")
            }
        }
    }

    struct Reload: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask widgets for a new timeline, as the app's WidgetCenter.reloadTimelines(ofKind:) does (against their budgets).")
        @Argument(help: "The widget kind (default: every kind, as reloadAllTimelines()).")
        var kind: String?
        @Option(help: "Only this containing app's widgets (its bundle identifier; default: every app).")
        var app: String?
        @OptionGroup var connection: Connection

        func run() throws {
            try connection.send(ControlRequest(command: "reload", app: app, kind: kind))
        }
    }

    struct Kill: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "SIGKILL an extension's live process, with a reason for the log.")
        @Argument(help: "The extension's bundle identifier.")
        var bundle: String
        @Option(
            help: "The reason recorded: chaos (default), timeBudget, memory, cpu, protocolViolation, idle, hostShutdown, sessionConflict.")
        var reason: String = "chaos"
        @OptionGroup var connection: Connection

        func run() throws {
            try connection.send(ControlRequest(command: "kill", bundle: bundle, reason: reason))
        }
    }

    struct Visibility: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set how often widgets are on screen: always, never, often, seldom.")
        @Argument(help: "always, never, often or seldom.")
        var visibility: String
        @Option(help: "Only widgets of this kind (their reloads); without it the whole screen's schedule changes.")
        var kind: String?
        @OptionGroup var connection: Connection

        func run() throws {
            try connection.send(ControlRequest(command: "visibility", kind: kind, value: visibility))
        }
    }

    struct Location: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move the device (LAT,LON), or change the app's location authorization or the user's choice for widgets.")
        @Argument(
            help:
                "LAT,LON; an authorization: notDetermined, denied, restricted, whenInUse, always; or extended / declined (location for widgets)."
        )
        var value: String
        @OptionGroup var connection: Connection

        func run() throws {
            try connection.send(ControlRequest(command: "location", value: value))
        }
    }

    struct Clock: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Advance the virtual clock: a duration such as 30m or 2d.")
        @Argument(help: "How far to advance the run clock (virtual clock only).")
        var advance: String
        @OptionGroup var connection: Connection

        func run() throws {
            try connection.send(ControlRequest(command: "clock", value: advance))
        }
    }
}
