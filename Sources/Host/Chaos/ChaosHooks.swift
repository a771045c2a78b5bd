import Glibc

/// Kills armed at protocol steps: the supervisor and the delivery of session events report each
/// step as they pass it; the first armed kill that matches fires at that moment. Confined to the
/// host's loop thread.
final class ChaosHooks {
    /// One armed kill.
    struct Arm {
        let id: UInt64
        let step: ProtocolStep
        let bundle: String?
        let target: ChaosTarget
    }

    private var arms: [Arm] = []
    /// Holds of the loop armed at steps (``LoopHold``), each taken once.
    private var holds: [(step: ProtocolStep, bundle: String, hold: LoopHold)] = []
    private var nextID: UInt64 = 1
    private let log: EventLog
    /// Kills an extension's process (the supervisor's kill, reason `chaos`).
    var killExtension: (ManagedExtension, ExtensionProcess, String) -> Void = { _, _, _ in }

    init(log: EventLog) {
        self.log = log
    }

    func arm(_ step: ProtocolStep, bundle: String?, target: ChaosTarget) -> UInt64 {
        let id = nextID
        nextID += 1
        arms.append(Arm(id: id, step: step, bundle: bundle, target: target))
        return id
    }

    /// Removes the armed kill `id`; false when it already fired (or never was).
    @discardableResult
    func disarm(_ id: UInt64) -> Bool {
        guard let index = arms.firstIndex(where: { $0.id == id }) else { return false }
        arms.remove(at: index)
        return true
    }

    /// Blocks the loop at the next time `bundle` reaches `step`, until `hold` is released.
    func armHold(_ step: ProtocolStep, bundle: String, hold: LoopHold) {
        holds.append((step, bundle, hold))
    }

    /// `step` was reached in the conversation with `process` of `ext`.
    func reached(_ step: ProtocolStep, _ ext: ManagedExtension, _ process: ExtensionProcess) {
        if let index = holds.firstIndex(where: { $0.step == step && $0.bundle == ext.identifier }) {
            holds.remove(at: index).hold.hold()
        }
        guard !arms.isEmpty, process.killReason == nil,
            let index = arms.firstIndex(where: { $0.step == step && ($0.bundle == nil || $0.bundle == ext.identifier) })
        else { return }
        let arm = arms.remove(at: index)
        switch arm.target {
        case .extension:
            killExtension(ext, process, "chaos at step \(step.rawValue)")
        case .host:
            log.emit(
                .hostKilled,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                    ("step", .string(step.rawValue)), ("hostPid", .int(Int64(getpid()))),
                    ("detail", .string("chaos: the host SIGKILLs itself at step \(step.rawValue)"))
                ])
            Glibc.kill(getpid(), SIGKILL)
            // SIGKILL of oneself is delivered before kill(2) returns; nothing runs after it.
            while true { pause() }
        }
    }
}
