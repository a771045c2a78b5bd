// swift-tools-version: 6.1
import PackageDescription

/// Microbenchmarks of the IPC codec and the incremental frame decoder, with ordo-one's
/// package-benchmark (wall clock, CPU, and mallocs through the malloc interposer). A package of
/// its own, depending on the root by path, so that `make test` never builds package-benchmark.
///
///     cd Benchmarks && swift package --disable-sandbox benchmark      # or: make bench-micro
let package = Package(
    name: "SandglassBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "sandglass", path: ".."),
        // Only the malloc interposer: the default traits pull a dependency this machine has no copy of.
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"])
    ],
    targets: [
        .executableTarget(
            name: "CodecBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "SandglassIPC", package: "sandglass")
            ],
            path: "Benchmarks/CodecBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
