import Glibc

/// Reads until `count` bytes arrived or the peer closed; returns the bytes read.
func readAtLeast(_ fd: Int32, _ count: Int) -> Int {
    var buffer = [UInt8](repeating: 0, count: max(count, 64))
    var done = 0
    while done < count {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        done += n
    }
    return done
}
