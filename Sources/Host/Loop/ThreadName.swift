import CSandbox

/// Names the calling thread as `top`, gdb and perf show it. Foundation's `Thread.name` does not
/// reach the kernel on Linux (a thread keeps the name of the one that made it — a dispatch
/// worker's, `…default-qos`), so the host's own threads name themselves as they start. The kernel
/// keeps 15 bytes; a longer name is cut there.
enum ThreadName {
    static func setCurrent(_ name: String) { sg_set_thread_name(name) }
}
