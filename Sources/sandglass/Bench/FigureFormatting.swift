import Foundation

/// `12.3 µs`, `4.56 ms`, `1.23 s`.
func formatMicroseconds(_ value: Double) -> String {
    if value >= 1_000_000 { return String(format: "%.2f s", value / 1_000_000) }
    if value >= 1000 { return String(format: "%.2f ms", value / 1000) }
    return String(format: "%.1f µs", value)
}

/// `s` padded with spaces to `width` columns (at least one space after it).
func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
}

/// `1.1`, `2`, `0.25`: a number without trailing zeros.
func trimmed(_ value: Double) -> String {
    var text = String(format: "%.2f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}

/// `1,234 /s`, `12.3 MiB`.
func formatScalar(_ value: Double, _ unit: String) -> String {
    let number = abs(value) >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value)
    return unit.isEmpty ? number : number + " " + unit
}
