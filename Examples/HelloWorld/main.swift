// The benchmark's floor for a cold start: a static hello-world Swift executable (standard
// library only), built like the examples with --static-swift-stdlib. `sandglass bench` times
// spawn → its first byte of output and spawn → its exit, beside the extensions' cold starts.
print("hello, world")
