# NotificationBridge — build, test, benchmark, demo.
#
#   make test    install what the tests need (Debian packages), build, run every test
#   make bench   release build; DBusCore against raw libdbus on a private bus
#   make demo    the bridge against a notification server drawn in the terminal (AUTO=1: scripted)
#   make fuzz    libFuzzer over the decoding of incoming messages (FUZZ_SECONDS=3600 by default)
#   make asan    the reliability tests against an AddressSanitizer/LeakSanitizer build of the daemon

SWIFT ?= swift
CC ?= cc
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages the build and the tests need.
BUILD_PACKAGES := libdbus-1-dev libglib2.0-dev pkg-config
TEST_PACKAGES := dbus-daemon libglib2.0-bin libnotify-bin dunst xvfb

BASELINE := Benchmarks/bin/dbus-raw-baseline

# The fuzzer is built with libFuzzer in a build folder of its own (its flags apply to every module).
FUZZ_SCRATCH := .build-fuzz
FUZZ_FLAGS := -Xswiftc -sanitize=fuzzer -Xswiftc -DNB_LIBFUZZER -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
FUZZ_BIN := $(FUZZ_SCRATCH)/debug/notification-bridge-fuzz
FUZZ_SECONDS ?= 3600
ASAN_SCRATCH := .build-asan

.PHONY: all build test deps bench demo clean fuzz-build fuzz-smoke fuzz asan

all: build

deps:
	@missing=""; \
	for package in $(BUILD_PACKAGES) $(TEST_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' "$$package" 2>/dev/null | grep -q "install ok installed" \
	        || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	    echo "Installing Debian packages:$$missing"; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build

test: deps fuzz-smoke
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The libFuzzer binary, and the seed corpus written by the plain build of the same target.
fuzz-build: deps
	$(SWIFT) build --scratch-path $(FUZZ_SCRATCH) --product notification-bridge-fuzz $(FUZZ_FLAGS)
	$(SWIFT) build --product notification-bridge-fuzz
	@mkdir -p $(FUZZ_SCRATCH)/corpus $(FUZZ_SCRATCH)/artifacts
	$$($(SWIFT) build --show-bin-path)/notification-bridge-fuzz --write-seeds $(FUZZ_SCRATCH)/seeds

# A short run, part of `make test`; a crash leaves its input in .build-fuzz/artifacts/.
fuzz-smoke: fuzz-build
	$(FUZZ_BIN) -runs=20000 -artifact_prefix=$(FUZZ_SCRATCH)/artifacts/ $(FUZZ_SCRATCH)/corpus $(FUZZ_SCRATCH)/seeds

# The long run: FUZZ_SECONDS of fuzzing, the corpus kept in .build-fuzz/corpus between runs.
fuzz: fuzz-build
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_SCRATCH)/artifacts/ $(FUZZ_SCRATCH)/corpus $(FUZZ_SCRATCH)/seeds

# The reliability tests with the daemon built with AddressSanitizer. A memory error fails the target. LeakSanitizer's
# reports of what each daemon still held at exit are kept in $(ASAN_SCRATCH)/reports/ and summed up: they are
# one-off structures (the exported interface, streams, weak-reference side tables), not per-notification growth,
# which the memory test checks.
asan: deps
	$(SWIFT) build --scratch-path $(ASAN_SCRATCH) --product notification-bridged -Xswiftc -sanitize=address
	$(SWIFT) build --build-tests
	@rm -rf $(ASAN_SCRATCH)/reports && mkdir -p $(ASAN_SCRATCH)/reports
	NB_DAEMON_EXECUTABLE=$(CURDIR)/$(ASAN_SCRATCH)/debug/notification-bridged NB_LEAK_CYCLES=$${NB_LEAK_CYCLES:-20000} \
	    ASAN_OPTIONS=detect_leaks=1:log_path=$(CURDIR)/$(ASAN_SCRATCH)/reports/daemon \
	    $(SWIFT) test --skip-build --filter ReliabilityTests
	@cat /dev/null $(ASAN_SCRATCH)/reports/daemon.* 2>/dev/null | grep "SUMMARY: AddressSanitizer: .* leaked" || true
	@if grep -l "ERROR: AddressSanitizer" $(ASAN_SCRATCH)/reports/daemon.* 2>/dev/null; then exit 1; fi
	@echo "AddressSanitizer: no memory errors"

$(BASELINE): Benchmarks/raw-baseline/dbus-raw-baseline.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -std=c11 -Wall -Wextra $$(pkg-config --cflags dbus-1) -o $@ $< $$(pkg-config --libs dbus-1)

bench: deps $(BASELINE)
	$(SWIFT) build -c release --product dbus-bench
	$$($(SWIFT) build -c release --show-bin-path)/dbus-bench --baseline $(BASELINE)

# AUTO=1 picks the actions by script instead of asking (also the default without a terminal).
demo: deps
	$(SWIFT) build --product notification-bridge-demo
	$$($(SWIFT) build --show-bin-path)/notification-bridge-demo $(if $(AUTO),--auto)

clean:
	rm -rf .build $(FUZZ_SCRATCH) $(ASAN_SCRATCH) Benchmarks/bin bench-results
