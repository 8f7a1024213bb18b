# NotificationBridge — build, test, benchmark, demo.
#
#   make test    install what the tests need (Debian packages), build, run every test
#   make bench   release build; the bridge against raw libdbus and its peers on a private bus (QUICK=1: short)
#   make demo    the bridge against a notification server drawn in the terminal (AUTO=1: scripted)

SWIFT ?= swift
CC ?= cc
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages the build and the tests need.
BUILD_PACKAGES := libdbus-1-dev libglib2.0-dev pkg-config
TEST_PACKAGES := dbus-daemon libglib2.0-bin libnotify-bin dunst xvfb

BASELINE := Benchmarks/bin/dbus-raw-baseline

.PHONY: all build test deps bench demo clean

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

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

BASELINE_SOURCES := $(wildcard Benchmarks/raw-baseline/*.c)

$(BASELINE): $(BASELINE_SOURCES) Benchmarks/raw-baseline/baseline.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -std=c11 -Wall -Wextra $$(pkg-config --cflags dbus-1) -o $@ $(BASELINE_SOURCES) \
	    $$(pkg-config --libs dbus-1)

# QUICK=1: fewer rounds and iterations, for a sanity run. STATIC=1: the Swift runtime and Foundation linked
# statically (in .build-static), as a package may ship them. Results: bench-results/bench.json.
BENCH_BUILD := -c release $(if $(STATIC),--static-swift-stdlib --scratch-path .build-static)

bench: deps $(BASELINE)
	$(SWIFT) build $(BENCH_BUILD) --product notification-bridged
	$(SWIFT) build $(BENCH_BUILD) --product notification-bridge
	$(SWIFT) build $(BENCH_BUILD) --product dbus-bench
	bin=$$($(SWIFT) build $(BENCH_BUILD) --show-bin-path) && $$bin/dbus-bench --baseline $(BASELINE) \
	    --daemon $$bin/notification-bridged --cli $$bin/notification-bridge $(if $(QUICK),--quick) \
	    $(if $(STATIC),--json bench-results/bench-static.json)

# AUTO=1 picks the actions by script instead of asking (also the default without a terminal).
demo: deps
	$(SWIFT) build --product notification-bridge-demo
	$$($(SWIFT) build --show-bin-path)/notification-bridge-demo $(if $(AUTO),--auto)

clean:
	rm -rf .build .build-static Benchmarks/bin bench-results
