/// An image's pixels, as `Image(uiImage:)` takes them: from a file of the bundle, from data
/// (PNG, JPEG, GIF), or a symbol.
///
/// Like iOS, the SDK decodes a bitmap when it draws it: rendering `Image(uiImage:)` allocates
/// and touches width × height × 4 bytes, inside the extension's memory limit. A 4000 × 3000
/// photo costs 46 MiB and gets the widget killed for memory, as it does on a device; make a
/// thumbnail first (`preparingThumbnail(of:)`).
public final class UIImage: @unchecked Sendable, CustomStringConvertible {
    /// The size in points (pixels divided by the scale).
    public let size: CGSize
    /// Pixels per point.
    public let scale: CGFloat
    let name: String
    let isSymbol: Bool
    private let data: Data?

    init(name: String, pixelSize: CGSize, scale: CGFloat, data: Data?, isSymbol: Bool = false) {
        self.name = name
        self.scale = scale
        self.size = CGSize(width: pixelSize.width / scale, height: pixelSize.height / scale)
        self.data = data
        self.isSymbol = isSymbol
    }

    /// An image file of the extension's bundle (`name.png`, `name@2x.png`, `name@3x.png`,
    /// `name.jpg`); `nil` when there is none (asset catalogs are not read).
    public convenience init?(named name: String) {
        let base = Bundle.main.resourcePath ?? Bundle.main.bundlePath
        for (suffix, scale) in [("@3x.png", 3.0), ("@2x.png", 2.0), (".png", 1.0), (".jpg", 1.0), (".jpeg", 1.0)] {
            if let data = FileManager.default.contents(atPath: "\(base)/\(name)\(suffix)") {
                self.init(data: data, scale: CGFloat(scale))
                return
            }
        }
        return nil
    }

    /// A symbol by name.
    public convenience init?(systemName: String) {
        self.init(name: systemName, pixelSize: CGSize(width: 51, height: 51), scale: 3, data: nil, isSymbol: true)
    }

    /// An image from PNG, JPEG or GIF data; `nil` when the data is none of those.
    public convenience init?(data: Data, scale: CGFloat = 1) {
        guard let pixels = ImageHeader.pixelSize(of: data) else { return nil }
        self.init(name: "image \(Int(pixels.width))×\(Int(pixels.height))", pixelSize: pixels, scale: max(scale, 1), data: data)
    }

    /// An image from a file.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data: data)
    }

    /// The image's data as PNG (the data it was made from).
    public func pngData() -> Data? { data }

    /// The image's data as JPEG (the data it was made from).
    public func jpegData(compressionQuality: CGFloat) -> Data? { data }

    /// A smaller copy that fits `size` (in pixels), as `UIImage.preparingThumbnail(of:)` makes.
    public func preparingThumbnail(of size: CGSize) -> UIImage? {
        let pixels = CGSize(width: self.size.width * scale, height: self.size.height * scale)
        let factor = min(1, size.width / max(pixels.width, 1), size.height / max(pixels.height, 1))
        return UIImage(
            name: name, pixelSize: CGSize(width: (pixels.width * factor).rounded(), height: (pixels.height * factor).rounded()),
            scale: 1, data: nil, isSymbol: isSymbol)
    }

    /// `preparingThumbnail(of:)`, asynchronously.
    public func byPreparingThumbnail(ofSize size: CGSize) async -> UIImage? {
        preparingThumbnail(of: size)
    }

    public var description: String { "<UIImage \(name) \(size.width)×\(size.height) @\(scale)x>" }

    /// The bytes a decoded bitmap of this image takes.
    var decodedByteCount: Int {
        guard !isSymbol else { return 0 }
        let w = size.width * scale, h = size.height * scale
        guard w.isFinite, h.isFinite, w > 0, h > 0 else { return 0 }
        return Int(min(w * h * 4, 1e15))
    }
}

/// The pixel size in an image file's header.
enum ImageHeader {
    static func pixelSize(of data: Data) -> CGSize? {
        let b = [UInt8](data.prefix(64 * 1024))
        func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        // PNG: the IHDR chunk.
        if b.count >= 24, b[0] == 0x89, b[1] == 0x50, b[2] == 0x4E, b[3] == 0x47 {
            return CGSize(width: be32(16), height: be32(20))
        }
        // GIF: the logical screen.
        if b.count >= 10, b[0] == 0x47, b[1] == 0x49, b[2] == 0x46 {
            return CGSize(width: Int(b[6]) | Int(b[7]) << 8, height: Int(b[8]) | Int(b[9]) << 8)
        }
        // JPEG: the first start-of-frame marker.
        if b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 {
            var i = 2
            while i + 9 < b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                    return CGSize(width: be16(i + 7), height: be16(i + 5))
                }
                i += 2 + be16(i + 2)
            }
        }
        return nil
    }
}

/// Decoded bitmaps of the render in progress: each `Image(uiImage:)` drawn allocates and
/// touches its pixels, as iOS does when it draws one; they are freed when the entry is done.
@MainActor
final class DecodedBitmaps {
    private var chunks: [UnsafeMutableRawPointer] = []

    /// Allocates `bytes`, a mebibyte at a time, writing every page.
    func decode(_ bytes: Int) {
        var left = bytes
        while left > 0 {
            let size = min(left, 1 << 20)
            let chunk = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            chunk.initializeMemory(as: UInt8.self, repeating: 0xA5, count: size)
            chunks.append(chunk)
            left -= size
        }
    }

    func free() {
        for chunk in chunks { chunk.deallocate() }
        chunks.removeAll()
    }
}
