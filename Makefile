# Sandglass — the two commands: `make demo` and `make test`.
SWIFT ?= swift
EXAMPLES := .build/examples
SANDGLASS := .build/debug/sandglass
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: all deps browser build clock-shim examples lint format test demo docs release bench bench-micro fuzz fuzz-build fuzz-seeds stress clean

all: build

# The system packages the build needs: libseccomp's headers (the sandbox), SQLite's (the
# journal) and libcurl's (the host's HTTP transport: HTTP/2 and TLS from the system, so the build
# compiles no TLS library of its own).
deps:
	@for pair in seccomp.h:libseccomp-dev sqlite3.h:libsqlite3-dev curl/curl.h:libcurl4-openssl-dev; do \
		header=$${pair%%:*}; package=$${pair#*:}; \
		if [ ! -f /usr/include/$$header ]; then \
			echo "installing $$package ($$header is missing)"; \
			$(SUDO) apt-get install -y $$package >/dev/null 2>&1 || \
			{ $(SUDO) apt-get update >/dev/null && $(SUDO) apt-get install -y $$package >/dev/null; }; \
		fi; \
	done

# Chromium opens the HTML report in one test. Where it cannot be installed, that test is skipped
# (saying so); where it is installed, SANDGLASS_REQUIRE_CHROMIUM=1 makes its absence a failure.
browser:
	@if ! command -v chromium >/dev/null 2>&1; then \
		echo "installing chromium (a test opens the HTML report in a headless browser)"; \
		$(SUDO) apt-get install -y chromium >/dev/null 2>&1 || \
		{ $(SUDO) apt-get update >/dev/null && $(SUDO) apt-get install -y chromium >/dev/null; } || \
		echo "warning: chromium could not be installed: the browser test of the report will be skipped"; \
	fi

build: deps
	$(SWIFT) build --product sandglass
	@$(MAKE) --no-print-directory clock-shim BIN="$$($(SWIFT) build --show-bin-path)"

# libsandglass-clock.so, preloaded into extensions on the virtual clock so that their Date()
# follows it. Built with the C compiler, not SwiftPM (whose dynamic libraries link the Swift
# runtime), next to the host's executable and the test bundle, where the host looks for it.
CLOCK_SHIM_SOURCE := Sources/ClockShim/sandglass_clock.c Sources/CSandbox/include/sg_clock_page.h
clock-shim: $(CLOCK_SHIM_SOURCE)
	@test -n "$(BIN)" || { echo "make clock-shim BIN=<swift build --show-bin-path>"; exit 2; }
	@mkdir -p "$(BIN)"
	$(CC) -shared -fPIC -O2 -Wall -Wextra -I Sources/CSandbox/include -o "$(BIN)/libsandglass-clock.so" Sources/ClockShim/sandglass_clock.c -ldl

# Example extensions: static Swift standard library (cold start ~2 ms), then bundled in
# Apple's layout from the templates in Examples/Bundles.
examples: build
	cd Examples && $(SWIFT) build -c release --static-swift-stdlib
	@mkdir -p $(EXAMPLES)
	@cp Examples/.build/release/HelloWorld $(EXAMPLES)/HelloWorld
	@for app in Examples/Bundles/*.app; do \
		$(SANDGLASS) bundle --template $$app --executables Examples/.build/release \
			-o $(EXAMPLES)/$$(basename $$app) || exit 1; \
	done

# The house style (.swift-format: 4-space indentation, 140 columns): `make lint` checks every
# Swift file in git, as `make test` does first; `make format` rewrites them in place.
SWIFT_FILES = $(shell git ls-files '*.swift' 2>/dev/null)
lint:
	@if [ -z "$(SWIFT_FILES)" ]; then echo "lint: not a git checkout, nothing to check"; else \
		echo "swift format lint --strict: $(words $(SWIFT_FILES)) files"; \
		$(SWIFT) format lint --strict --parallel $(SWIFT_FILES); fi

format:
	@test -n "$(SWIFT_FILES)" && $(SWIFT) format --in-place --parallel $(SWIFT_FILES)

test: lint examples browser
	SANDGLASS_EXAMPLES=$(CURDIR)/$(EXAMPLES) \
	SANDGLASS_REQUIRE_CHROMIUM=$$(command -v chromium >/dev/null 2>&1 && echo 1) \
	$(SWIFT) test

demo: examples
	$(SANDGLASS) demo --examples $(EXAMPLES)

# DocC: the SDK (WidgetKit, what differs from Apple's) and the host as a library (the event-log
# reference, the concurrency model, the virtual clock), as static sites in .build/docs.
DOCC ?= $(shell dirname "$$(readlink -f "$$(command -v swift)")")/docc
SYMBOLS = .build/docs/symbols
docs: build
	$(SWIFT) package dump-symbol-graph --minimum-access-level public
	@for module in WidgetKit SandglassHost; do \
		rm -rf $(SYMBOLS)/$$module && mkdir -p $(SYMBOLS)/$$module && \
		cp "$$($(SWIFT) build --show-bin-path)"/../symbolgraph/$$module.symbols.json \
		   "$$($(SWIFT) build --show-bin-path)"/../symbolgraph/$$module@*.symbols.json $(SYMBOLS)/$$module/ 2>/dev/null; \
		catalog=$$(ls -d Sources/*/$$module.docc) && \
		$(DOCC) convert $$catalog --additional-symbol-graph-dir $(SYMBOLS)/$$module \
			--fallback-display-name $$module --fallback-bundle-identifier sandglass.$$module \
			--warnings-as-errors --output-path .build/docs/$$module || exit 1; \
		echo "documentation: .build/docs/$$module (serve it: python3 -m http.server -d .build/docs/$$module)"; \
	done

# The optimised host, for figures: benchmarks and long stress runs.
release: deps
	$(SWIFT) build -c release --product sandglass
	@$(MAKE) --no-print-directory clock-shim BIN="$$($(SWIFT) build -c release --show-bin-path)"

bench: examples release
	.build/release/sandglass bench --examples $(EXAMPLES) --json .build/bench.json --html .build/bench.html

# Microbenchmarks of the IPC codec and decoder (ordo-one/package-benchmark), a package of its
# own so that `make test` never builds it.
bench-micro: deps
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark

# Fuzzing with libFuzzer (swiftc -sanitize=fuzzer; clang's runtime ships with the toolchain):
# the IPC frame decoder and the bundle / Info.plist loader, each for FUZZ_SECONDS (or FUZZ_RUNS
# inputs, whichever ends first), starting from
# the seed corpus in Fuzz/corpus (new inputs go to .build/fuzz/corpus-*, findings to
# .build/fuzz/crash-*). Not part of `make test`: every input kept in Fuzz/corpus is decoded by
# the unit tests instead (FuzzCorpusTests).
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= -1
FUZZ_JOBS ?= 1
FUZZ := .build/fuzz
FUZZ_FLAGS := -O -sanitize=fuzzer -parse-as-library
BUNDLE_SOURCES := $(addprefix Sources/Host/Bundles/,AppBundle.swift BundleError.swift BundleFile.swift BundleIdentifierRules.swift \
	BundleLoader.swift Entitlements.swift ExtensionBundle.swift ExtensionBundleReader.swift ExtensionPoint.swift \
	PropertyListDictionary.swift PropertyListValue.swift SandglassLimits.swift) Sources/Host/Supervisor/Budgets.swift \
	Sources/Host/RegularFile.swift Sources/Host/BinaryPropertyListCheck.swift

fuzz-build: $(FUZZ)/frame-decoder $(FUZZ)/bundle-loader

$(FUZZ)/libSandglassIPC.a: Sources/IPC/*.swift
	@mkdir -p $(FUZZ)
	$(SWIFT)c $(FUZZ_FLAGS) -module-name SandglassIPC -emit-module -emit-module-path $(FUZZ)/SandglassIPC.swiftmodule \
		-emit-library -static -o $@ Sources/IPC/*.swift

$(FUZZ)/frame-decoder: Fuzz/FrameDecoderFuzzer.swift $(FUZZ)/libSandglassIPC.a
	$(SWIFT)c $(FUZZ_FLAGS) -I $(FUZZ) -L $(FUZZ) -lSandglassIPC -o $@ Fuzz/FrameDecoderFuzzer.swift

$(FUZZ)/bundle-loader: Fuzz/BundleLoaderFuzzer.swift $(BUNDLE_SOURCES) $(FUZZ)/libSandglassIPC.a
	$(SWIFT)c $(FUZZ_FLAGS) -module-name BundleLoaderFuzzer -package-name sandglass -I $(FUZZ) -L $(FUZZ) -lSandglassIPC -o $@ \
		Fuzz/BundleLoaderFuzzer.swift $(BUNDLE_SOURCES)

# The bundle loader runs with -close_fd_mask=2: Foundation's plist parser warns on standard
# error for every malformed input.
fuzz: fuzz-build
	@mkdir -p $(FUZZ)/corpus-ipc $(FUZZ)/corpus-bundle
	$(FUZZ)/frame-decoder -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) -jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS) -print_final_stats=1 \
		-artifact_prefix=$(FUZZ)/crash-ipc- $(FUZZ)/corpus-ipc Fuzz/corpus/ipc
	$(FUZZ)/bundle-loader -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) -jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS) -close_fd_mask=2 -print_final_stats=1 \
		-artifact_prefix=$(FUZZ)/crash-bundle- $(FUZZ)/corpus-bundle Fuzz/corpus/bundle

# Regenerates the IPC seeds from Tests/IPCTests/Samples.swift (an uninstrumented build).
fuzz-seeds:
	@mkdir -p $(FUZZ)/plain
	$(SWIFT)c -parse-as-library -module-name SandglassIPC -emit-module -emit-module-path $(FUZZ)/plain/SandglassIPC.swiftmodule \
		-emit-library -static -o $(FUZZ)/plain/libSandglassIPC.a Sources/IPC/*.swift
	$(SWIFT)c -parse-as-library -I $(FUZZ)/plain -L $(FUZZ)/plain -lSandglassIPC -o $(FUZZ)/plain/seed-writer \
		Fuzz/SeedWriter.swift Tests/IPCTests/Samples.swift
	$(FUZZ)/plain/seed-writer Fuzz/corpus/ipc

# A chaos run over the examples (STRESS_ARGS to change it), on the release host: a long run
# goes about 3.5 times as fast as on the debug build.
STRESS_ARGS ?= --seed 1 --iterations 300
stress: examples release
	.build/release/sandglass stress $(EXAMPLES)/Downloader.app $(EXAMPLES)/Leaderboard.app $(STRESS_ARGS)

clean:
	rm -rf .build Examples/.build Benchmarks/.build
