import Foundation

/// `2 cores · Linux 6.18 · Swift 6.3.1`.
func machineSummary() -> String {
    var uts = utsname()
    uname(&uts)
    let release = withUnsafeBytes(of: uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    var cpu = ""
    if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
        let colon = line.firstIndex(of: ":")
    {
        cpu = " · " + line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let memory = ProcessInfo.processInfo.physicalMemory >> 30
    return "\(ProcessInfo.processInfo.activeProcessorCount) cores\(cpu) · \(memory) GiB · Linux \(release)"
}
