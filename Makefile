# NotificationBridge — build, test, benchmark, demo.
#
#   make test    install what the tests need (Debian packages), build, run every test
#   make bench   release build; DBusCore against raw libdbus on a private bus
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

# The Debian package: `make deb` builds .build/deb/notification-bridge_VERSION_ARCH.deb (static Swift standard
# library, man pages, completions, D-Bus activation, systemd user unit) and runs lintian on it; `make deb-test` (root)
# installs it into a clean Debian root made by debootstrap and posts a notification through D-Bus activation there.
DEB_PACKAGES := dpkg-dev help2man lintian python3 debootstrap

.PHONY: deb deb-test

deb:
	@$(MAKE) --no-print-directory deps TEST_PACKAGES="$(DEB_PACKAGES)"
	SWIFT="$(SWIFT)" packaging/build-deb.sh .build/deb

deb-test: deb
	packaging/test-install.sh

clean:
	rm -rf .build Benchmarks/bin bench-results
