import Dispatch

/// Starts a worker thread in each of the two pools of Dispatch that the SDK's queues run on —
/// the global queues' and the serial queues' — while the process waits for the host's welcome,
/// so that the first work queued later (a session's delivery queue, its preparation, a
/// provider's completion) wakes a thread instead of waiting for one to be made. On a relaunch
/// for background events that wait was 0.25–0.3 ms on the way to the first delegate call; the
/// threads, idle afterwards, end on their own.
enum DispatchPoolWarmUp {
    static func start() {
        DispatchQueue.global().async {}
        DispatchQueue(label: "sandglass.pool-warm-up").async {}
    }
}
