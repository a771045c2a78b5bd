# Sandglass — the two commands: `make demo` and `make test`.
SWIFT ?= swift
EXAMPLES := .build/examples
SANDGLASS := .build/debug/sandglass
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: all deps build examples test demo bench clean

all: build

# libseccomp's headers are the one system package the build needs.
deps:
	@if [ ! -f /usr/include/seccomp.h ]; then \
		echo "installing libseccomp-dev (seccomp.h is missing)"; \
		$(SUDO) apt-get install -y libseccomp-dev >/dev/null 2>&1 || \
		{ $(SUDO) apt-get update >/dev/null && $(SUDO) apt-get install -y libseccomp-dev >/dev/null; }; \
	fi

build: deps
	$(SWIFT) build --product sandglass

# Example extensions: static Swift standard library (cold start ~2 ms), then bundled in
# Apple's layout from the templates in Examples/Bundles.
examples: build
	cd Examples && $(SWIFT) build -c release --static-swift-stdlib
	@mkdir -p $(EXAMPLES)
	@for app in Examples/Bundles/*.app; do \
		$(SANDGLASS) bundle --template $$app --executables Examples/.build/release \
			-o $(EXAMPLES)/$$(basename $$app) || exit 1; \
	done

test: examples
	SANDGLASS_EXAMPLES=$(CURDIR)/$(EXAMPLES) $(SWIFT) test

demo: examples
	$(SANDGLASS) demo --examples $(EXAMPLES)

bench: examples
	$(SWIFT) build -c release --product sandglass
	.build/release/sandglass bench --examples $(EXAMPLES)

clean:
	rm -rf .build Examples/.build
