# Sandglass — the two commands: `make demo` and `make test`.
SWIFT ?= swift
EXAMPLES := .build/examples
SANDGLASS := .build/debug/sandglass
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: all deps browser build clock-shim examples test demo bench bench-micro clean

all: build

# libseccomp's headers are the one system package the build needs.
deps:
	@if [ ! -f /usr/include/seccomp.h ]; then \
		echo "installing libseccomp-dev (seccomp.h is missing)"; \
		$(SUDO) apt-get install -y libseccomp-dev >/dev/null 2>&1 || \
		{ $(SUDO) apt-get update >/dev/null && $(SUDO) apt-get install -y libseccomp-dev >/dev/null; }; \
	fi

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

test: examples browser
	SANDGLASS_EXAMPLES=$(CURDIR)/$(EXAMPLES) \
	SANDGLASS_REQUIRE_CHROMIUM=$$(command -v chromium >/dev/null 2>&1 && echo 1) \
	$(SWIFT) test

demo: examples
	$(SANDGLASS) demo --examples $(EXAMPLES)

bench: examples
	$(SWIFT) build -c release --product sandglass
	@$(MAKE) --no-print-directory clock-shim BIN="$$($(SWIFT) build -c release --show-bin-path)"
	.build/release/sandglass bench --examples $(EXAMPLES) --json .build/bench.json --html .build/bench.html

# Microbenchmarks of the IPC codec and decoder (ordo-one/package-benchmark), a package of its
# own so that `make test` never builds it.
bench-micro: deps
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark

clean:
	rm -rf .build Examples/.build Benchmarks/.build
