# NotificationBridge — build, test, benchmark, demo.
#
#   make test    install what the tests need (Debian packages), build, run every test
#   make bench   release build; DBusCore against raw libdbus on a private bus
#   make demo    the daemon and a notification server in the terminal, on a private bus (AUTO=1: scripted)
#   make docs    the library's DocC documentation, as a static site in .build-docs/site

SWIFT ?= swift
CC ?= cc
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages the build and the tests need.
BUILD_PACKAGES := libdbus-1-dev libglib2.0-dev pkg-config
TEST_PACKAGES := dbus-daemon libglib2.0-bin libnotify-bin dunst xvfb tzdata

BASELINE := Benchmarks/bin/dbus-raw-baseline

.PHONY: all build test deps bench demo docs clean

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

# A private bus, notification-terminal-server and notification-bridged, with the demo playing a mail app.
# AUTO=1 plays the user by script instead of asking (also the default without a terminal); it fails unless every
# expected response arrives.
DEMO_PRODUCTS := notification-bridged notification-terminal-server notification-bridge-demo

demo: deps
	for product in $(DEMO_PRODUCTS); do $(SWIFT) build --product $$product || exit 1; done
	$$($(SWIFT) build --show-bin-path)/notification-bridge-demo $(if $(AUTO),--auto)

# Symbol graphs of the library and its model, then DocC over the catalogue (own scratch path: other flags).
DOCS_SCRATCH := .build-docs
docs: deps
	rm -rf $(DOCS_SCRATCH)/symbol-graphs && mkdir -p $(DOCS_SCRATCH)/symbol-graphs/all $(DOCS_SCRATCH)/symbol-graphs/library
	$(SWIFT) build --scratch-path $(DOCS_SCRATCH) --target NotificationBridge \
	    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/$(DOCS_SCRATCH)/symbol-graphs/all
	cp $(DOCS_SCRATCH)/symbol-graphs/all/NotificationBridge*.symbols.json $(DOCS_SCRATCH)/symbol-graphs/library/
	$$(dirname $$(command -v $(SWIFT)))/docc convert Sources/NotificationBridge/NotificationBridge.docc \
	    --additional-symbol-graph-dir $(DOCS_SCRATCH)/symbol-graphs/library \
	    --fallback-display-name NotificationBridge --fallback-bundle-identifier io.github.NotificationBridge \
	    --transform-for-static-hosting --output-path $(DOCS_SCRATCH)/site
	@echo "Documentation: $(DOCS_SCRATCH)/site/documentation/notificationbridge/index.html"

clean:
	rm -rf .build .build-docs Benchmarks/bin bench-results
