import Foundation

/// `1 s`, `250 ms`, `2 min`.
func format(_ duration: Duration) -> String {
    let ms = duration.milliseconds
    if ms >= 3_600_000 && ms.truncatingRemainder(dividingBy: 3_600_000) == 0 { return "\(Int(ms / 3_600_000)) h" }
    if ms >= 60_000 && ms.truncatingRemainder(dividingBy: 60_000) == 0 { return "\(Int(ms / 60_000)) min" }
    if ms >= 1000 && ms.truncatingRemainder(dividingBy: 1000) == 0 { return "\(Int(ms / 1000)) s" }
    if ms >= 1000 { return String(format: "%.1f s", ms / 1000) }
    return "\(Int(ms.rounded())) ms"
}
