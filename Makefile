# NotificationBridge — build, test, benchmark, demo.
#
#   make         what make install installs: the programs' release build (packaging/release-build-flags.sh) and the
#                manual pages; installs only the Debian packages the build needs (BUILD_PACKAGES)
#   make test    install what the tests need (Debian packages), check the formatting, build, run every test (the
#                reliability tests last, alone), then the count gates and their self-test (make gates gates-selftest)
#   make format  format the sources as .swift-format says (make lint: only check, as make test does)
#   make bench   release build; the bridge against raw libdbus and its peers on a private bus (QUICK=1: short)
#   make gates   the programs as the .deb ships them; instructions and heap allocations per operation of the hot
#                paths, each against its threshold in Benchmarks/gates.tsv (make gates-selftest: a regression
#                planted in the daemon's Post must fail them). Both are part of make test
#   make demo    the daemon and a notification server in the terminal, on a private bus (AUTO=1: scripted)
#   make docs    the library's DocC documentation, as a static site in .build-docs/site (fails on a DocC warning,
#                on a compiler warning in the library's modules and on a public declaration without a /// summary:
#                make docs-check); and the Getting Started page's app, built in a package of its own
#   make man     the manual pages of man/, checked by groff and compressed in .build/man
#   make fuzz    libFuzzer over the decoding of incoming messages (FUZZ_SECONDS=3600 by default)
#   make asan    the reliability tests against an AddressSanitizer/LeakSanitizer build of the daemon
#   make interop the daemon and the CLI against the real notification servers Debian ships, under Xvfb and sway
#                (SUITE=trixie: trixie's servers, from a trixie root made with debootstrap; make deb-test takes it too)
#   make suite-test SUITE=trixie   the tests that depend on the release's bus, portal and sandbox tools, in its root
#   make install PREFIX=/usr/local DESTDIR=   the programs, D-Bus activation, the systemd user unit, manual pages and
#                completions, as a distribution places them (NOTIFY_SEND=1: also notify-send as a link to the CLI);
#                make uninstall removes them. Needs Swift 6.3 or later (the event loop is the process's executor
#                through Swift 6.3's custom executors).

SWIFT ?= swift
CC ?= cc
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages the build and the tests need.
BUILD_PACKAGES := libdbus-1-dev libglib2.0-dev libsqlite3-dev pkg-config
# groff-base renders the manual pages the tests check; systemd brings busctl, which their examples use; bubblewrap
# and xdg-dbus-proxy build the sandboxes of the sandboxed-app tests; python3-dbusmock is the notification server and
# the portal libnotify's own notify-send tests run against, as the notify-send tests do; valgrind counts the
# instructions of the gates.
TEST_PACKAGES := dbus-daemon libglib2.0-bin libnotify-bin dunst xvfb tzdata xdg-desktop-portal xdg-desktop-portal-gtk \
    gsettings-desktop-schemas groff-base systemd bubblewrap xdg-dbus-proxy python3-dbusmock valgrind

BASELINE := Benchmarks/bin/dbus-raw-baseline

# The fuzzer is built with libFuzzer in a build folder of its own (its flags apply to every module).
FUZZ_SCRATCH := .build-fuzz
FUZZ_FLAGS := -Xswiftc -sanitize=fuzzer -Xswiftc -DNB_LIBFUZZER -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
FUZZ_BIN := $(FUZZ_SCRATCH)/debug/notification-bridge-fuzz
FUZZ_SECONDS ?= 3600
ASAN_SCRATCH := .build-asan

.PHONY: all build build-deps release test deps lint format bench gates gates-selftest demo docs docs-check man clean \
    fuzz-build \
    fuzz-smoke fuzz asan interop

all: release man

# The Debian packages of BUILD_PACKAGES and TEST_PACKAGES that are missing, installed (as root, or through sudo).
deps:
	@missing=""; \
	for package in $(BUILD_PACKAGES) $(TEST_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' "$$package" 2>/dev/null | grep -q "install ok installed" \
	        || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	    echo "Installing Debian packages:$$missing"; \
	    flock $(APT_LOCK) $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive flock $(APT_LOCK) $(SUDO) apt-get install -y -qq --no-install-recommends \
	        -o DPkg::Lock::Timeout=300 $$missing; \
	fi

# CI makes the trixie root while make test runs, and each may install packages: one apt-get at a time.
APT_LOCK := /tmp/notification-bridge-apt.lock

# Only what building needs, for `make` and `make install`.
build-deps:
	@$(MAKE) --no-print-directory deps TEST_PACKAGES=

build: deps
	$(SWIFT) build

# swift-format comes with the toolchain; the rules are in .swift-format.
SWIFT_FORMAT ?= swift-format
FORMATTED := Sources Tests Benchmarks Package.swift

lint:
	$(SWIFT_FORMAT) lint --strict --recursive --parallel $(FORMATTED)

format:
	$(SWIFT_FORMAT) format --in-place --recursive --parallel $(FORMATTED)

# The tests run in one process, each bounding its waits, and their servers and buses answer on the same two cores:
# started all at once (the testing library's default), hundreds of them queued behind each other on a loaded machine
# until a call in one waited out its 25 s (141 failures in one run under load). TEST_WIDTH of them run at a time; the
# whole run takes no longer. The reliability tests run after the others, alone: each of their suites loads the machine
# on its own (a daemon with 100,000 notifications, thousands of connections).
TEST_WIDTH ?= 6
test: deps lint fuzz-smoke
	$(SWIFT) build --build-tests
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build --skip ReliabilityTests
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build --filter ReliabilityTests
	@$(MAKE) --no-print-directory gates gates-selftest

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

# make interop SUITE=trixie: the same cases against another Debian release's own servers. Its root is made once with
# debootstrap in $(SUITE_ROOT) (tools/suite-root.sh; made again or updated when the package list below changes), and
# the tests built here run inside it (tools/in-suite-root.sh), with the repository and the Swift toolchain mounted at
# their paths, so every program they start (Xvfb, sway, dbus-daemon, the servers, xdotool, pyatspi, dpkg-query) is that
# release's. Verdicts: $(SUITE_ARTIFACTS)/summary.txt, whose first line names the release. Needs root. SUITE naming
# this machine's own release (or none) is the plain make interop.
SUITE ?=
HOST_SUITE := $(shell . /etc/os-release 2>/dev/null && echo "$$VERSION_CODENAME")
OTHER_SUITE := $(filter-out $(HOST_SUITE),$(SUITE))
SUITE_ROOT := .build/$(SUITE)-root
SUITE_ARTIFACTS := $(CURDIR)/.build/interop-$(SUITE)
# The servers and the harness's tools, by their trixie names (Plasma 6 brings kglobalacceld in place of KDE Frameworks
# 5's kglobalaccel5); then what the test programs built here load (the Swift runtime comes from the toolchain). The
# text prompt is the harness's own script, so no zenity or yad.
INTEROP_PACKAGES_trixie := xfce4-notifyd notification-daemon mate-notification-daemon lxqt-notificationd dunst xvfb \
    xdotool imagemagick python3-pyatspi at-spi2-core libatk-adaptor gnome-shell gjs \
    plasma-workspace plasma-desktop kactivitymanagerd kglobalacceld \
    sway mako-notifier sway-notification-center grim jq systemd dbus-daemon \
    libdbus-1-3 libglib2.0-0t64 libsqlite3-0 libxml2 libstdc++6 \
    xdg-desktop-portal xdg-desktop-portal-gtk bubblewrap xdg-dbus-proxy gsettings-desktop-schemas libglib2.0-bin
# Where the toolchain is installed (its runtime libraries are what the built tests load).
SWIFT_PREFIX = $(shell dirname "$$(dirname "$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")")")")

.PHONY: interop-root

interop-root:
	@[ -n "$(INTEROP_PACKAGES_$(SUITE))" ] || { echo "make interop knows SUITE=trixie (and this machine's own release, $(HOST_SUITE))" >&2; exit 1; }
	@$(MAKE) --no-print-directory deps BUILD_PACKAGES= TEST_PACKAGES=debootstrap
	tools/suite-root.sh $(SUITE) $(SUITE_ROOT) $(INTEROP_PACKAGES_$(SUITE))

# The real servers, the tools that act as their user (xdotool, the accessibility tree through pyatspi, import for
# screenshots; for the Wayland servers headless sway, makoctl with busctl and jq, grim for screenshots) and the prompt
# programs. Each server's verdict (passed; FAILED with its first failing expectation;
# skipped with the reason) is in $(INTEROP_ARTIFACTS)/summary.txt, beside a screenshot of each server showing a
# notification of the bridge. The target fails when a server failed or the tests did not finish.
INTEROP_PACKAGES := xfce4-notifyd notification-daemon mate-notification-daemon lxqt-notificationd dunst xvfb \
    xdotool imagemagick python3-pyatspi at-spi2-core libatk-adaptor zenity yad gnome-shell gjs \
    plasma-workspace plasma-desktop kactivitymanagerd libkf5globalaccel-bin \
    sway mako-notifier sway-notification-center grim jq systemd
INTEROP_ARTIFACTS := $(CURDIR)/.build/interop

ifneq ($(OTHER_SUITE),)
interop: interop-root
	@[ -d "$(SWIFT_PREFIX)/usr/lib/swift" ] || { echo "make interop SUITE=$(SUITE): no Swift toolchain found from '$(SWIFT)'; put one on PATH or set SWIFT=" >&2; exit 1; }
	@$(MAKE) --no-print-directory deps TEST_PACKAGES=
	$(SWIFT) build --build-tests
	@rm -rf $(SUITE_ARTIFACTS) && mkdir -p $(SUITE_ARTIFACTS)
	@echo "Debian $(SUITE): servers and tools of $(SUITE_ROOT)" >$(SUITE_ARTIFACTS)/summary.txt
	tools/in-suite-root.sh $(SUITE_ROOT) --bind $(CURDIR) --ro-bind $(SWIFT_PREFIX) --env NB_INTEROP=1 \
	    --env NB_INTEROP_ARTIFACTS=$(SUITE_ARTIFACTS) $(if $(NB_INTEROP_SERVERS),--env 'NB_INTEROP_SERVERS=$(NB_INTEROP_SERVERS)') \
	    -- $$($(SWIFT) build --show-bin-path)/NotificationBridgePackageTests.xctest --testing-library swift-testing \
	    --filter 'InteropTests\.InteropTests'; \
	    status=$$?; echo "Real servers:"; cat $(SUITE_ARTIFACTS)/summary.txt; \
	    if grep -q ': FAILED' $(SUITE_ARTIFACTS)/summary.txt; then status=1; fi; \
	    if ! grep -qE ': (passed|skipped)' $(SUITE_ARTIFACTS)/summary.txt; then \
	        echo "No verdicts: the tests did not run"; status=1; fi; \
	    exit $$status
else
interop:
	@$(MAKE) --no-print-directory deps TEST_PACKAGES="$(TEST_PACKAGES) $(INTEROP_PACKAGES)"
	$(SWIFT) build --build-tests
	@rm -rf $(INTEROP_ARTIFACTS) && mkdir -p $(INTEROP_ARTIFACTS)
	NB_INTEROP=1 NB_INTEROP_ARTIFACTS=$(INTEROP_ARTIFACTS) $(SWIFT) test --skip-build --filter 'InteropTests\.InteropTests'; \
	    status=$$?; echo "Real servers:"; cat $(INTEROP_ARTIFACTS)/summary.txt 2>/dev/null; \
	    if grep -q ': FAILED' $(INTEROP_ARTIFACTS)/summary.txt 2>/dev/null; then status=1; fi; \
	    if [ ! -s $(INTEROP_ARTIFACTS)/summary.txt ]; then echo "No verdicts: the tests did not run"; status=1; fi; \
	    exit $$status
endif

# make suite-test SUITE=trixie: the tests whose outcome depends on the release's own bus, portal and sandbox tools,
# run inside its root as make interop runs the servers there: file descriptors on the wire and callers identified by
# the pidfd the bus gives (trixie's dbus-daemon 1.16 sends ProcessFD, which the tests then require), the real
# xdg-desktop-portal with its GTK backend, the bwrap sandboxes, and doctor.
SUITE_TESTS := FileDescriptorTests|PidfdPeerTests|SandboxedPeerTests|SandboxedIdentityTests|DoctorTests|SandboxedDoctorTests|RealPortalTests|SandboxedPortalTests|DaemonFromSandboxTests

.PHONY: suite-test

suite-test: interop-root
	$(SWIFT) build --build-tests
	tools/in-suite-root.sh $(SUITE_ROOT) --bind $(CURDIR) --ro-bind $(SWIFT_PREFIX) \
	    $(if $(filter trixie,$(SUITE)),--env NB_EXPECT_PROCESS_FD=1) \
	    -- $$($(SWIFT) build --show-bin-path)/NotificationBridgePackageTests.xctest --testing-library swift-testing \
	    --filter '$(SUITE_TESTS)'

BASELINE_SOURCES := $(wildcard Benchmarks/raw-baseline/*.c)

$(BASELINE): $(BASELINE_SOURCES) Benchmarks/raw-baseline/baseline.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -std=c11 -Wall -Wextra $$(pkg-config --cflags dbus-1 sqlite3) -o $@ $(BASELINE_SOURCES) \
	    $$(pkg-config --libs dbus-1 sqlite3)

# QUICK=1: fewer rounds and iterations, for a sanity run. STATIC=1: built as the .deb ships the programs (the Swift
# runtime linked statically, in .build-static; packaging/release-build-flags.sh). Results: bench-results/bench.json
# and the table in bench-results/bench.md; a full STATIC=1 run, the one docs/performance.md reads, writes its table to
# docs/performance-table.md. Each figure is compared with the last committed table (docs/performance-table.md at
# HEAD; the file itself outside a git checkout): the column "vs last".
BENCH_BUILD := -c release $(if $(STATIC),$(shell packaging/release-build-flags.sh))

bench: deps $(BASELINE)
	$(SWIFT) build $(BENCH_BUILD) --product notification-bridged
	$(SWIFT) build $(BENCH_BUILD) --product notification-bridge
	$(SWIFT) build $(BENCH_BUILD) --product notification-terminal-server
	$(SWIFT) build $(BENCH_BUILD) --product dbus-bench
	$(SWIFT) build $(BENCH_BUILD) --product bench-idle-floor
	$(SWIFT) build $(BENCH_BUILD) --product bench-send-floor
	@mkdir -p bench-results && { git show HEAD:docs/performance-table.md >bench-results/last-table.md 2>/dev/null \
	    || cp docs/performance-table.md bench-results/last-table.md; }
	bin=$$($(SWIFT) build $(BENCH_BUILD) --show-bin-path) && $$bin/dbus-bench --baseline $(BASELINE) \
	    --daemon $$bin/notification-bridged --cli $$bin/notification-bridge --floor $$bin/bench-idle-floor \
	    --send-floor $$bin/bench-send-floor --compare bench-results/last-table.md \
	    $(if $(QUICK),--quick) \
	    $(if $(STATIC),--json bench-results/bench-static.json \
	        --markdown $(if $(QUICK),bench-results/bench-static.md,docs/performance-table.md))

# The gates: the hot paths' costs counted, not timed (docs/performance.md, "Gates on counts"). bench-gates runs the
# daemon, the CLI and an app on the library under valgrind's callgrind with the malloc counter preloaded, N and 2N
# operations each, and fails when a figure per operation is past its threshold in Benchmarks/gates.tsv.
# PROPOSE=1 also prints the lines a new measure suggests; ONLY=daemon-post,cli-send measures those paths alone.
# The programs counted are the ones the .deb ships, built with its flags in its build folder (.build-static), which
# make deb then finds built: the gates add no release build of their own to make test and CI, only bench-gates.
MALLOC_COUNT := Benchmarks/bin/malloc-count.so
GATES_BUILD := -c release $(shell packaging/release-build-flags.sh)
GATES := Benchmarks/gates.tsv
GATES_PLANTED_SCRATCH := .build-gates-planted
PLANTED_REGRESSION := $(GATES_PLANTED_SCRATCH)/planted-regression.so

$(MALLOC_COUNT): Benchmarks/malloc-count/malloc-count.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -std=c11 -Wall -Wextra -shared -fPIC -o $@ $<

.PHONY: gates-build

gates-build: deps $(MALLOC_COUNT)
	$(SWIFT) build $(GATES_BUILD) --product notification-bridged
	$(SWIFT) build $(GATES_BUILD) --product notification-bridge
	$(SWIFT) build $(GATES_BUILD) --product bench-gates

gates: gates-build
	bin=$$($(SWIFT) build $(GATES_BUILD) --show-bin-path) && $$bin/bench-gates --gates $(GATES) \
	    --daemon $$bin/notification-bridged --cli $$bin/notification-bridge --shim $(CURDIR)/$(MALLOC_COUNT) \
	    $(if $(PROPOSE),--propose) $(if $(ONLY),--only $(ONLY))

# The gates' own test: the daemon's Post made to do more work must fail both daemon-post gates. The work is planted
# by a small C library built here (Benchmarks/planted-regression), preloaded into the counted daemon, which adds fifty
# allocations and some 300,000 instructions to the Notify each Post sends: the same daemon the gates count, with no
# second build of it.
$(PLANTED_REGRESSION): Benchmarks/planted-regression/planted-regression.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -std=c11 -Wall -Wextra -shared -fPIC $$(pkg-config --cflags dbus-1) -o $@ $< -ldl

gates-selftest: gates-build $(PLANTED_REGRESSION)
	@bin=$$($(SWIFT) build $(GATES_BUILD) --show-bin-path); \
	status=0; $$bin/bench-gates --gates $(GATES) --only daemon-post --daemon $$bin/notification-bridged \
	    --cli $$bin/notification-bridge --shim $(CURDIR)/$(MALLOC_COUNT) --preload $(CURDIR)/$(PLANTED_REGRESSION) \
	    --work $(GATES_PLANTED_SCRATCH)/work >$(GATES_PLANTED_SCRATCH)/gates.out || status=$$?; \
	cat $(GATES_PLANTED_SCRATCH)/gates.out; \
	if [ $$status -eq 1 ] && grep -q '^gate failed: daemon-post instructions' $(GATES_PLANTED_SCRATCH)/gates.out \
	    && grep -q '^gate failed: daemon-post allocations' $(GATES_PLANTED_SCRATCH)/gates.out; then \
	    echo "gates-selftest: the gates failed the planted regression, as they must"; \
	else \
	    echo "gates-selftest: the planted regression was not caught (bench-gates exit status $$status; both" \
	        "daemon-post gates must fail)"; exit 1; \
	fi

# A private bus, notification-terminal-server and notification-bridged, with the demo playing a mail app.
# AUTO=1 plays the user by script instead of asking (also the default without a terminal); it fails unless every
# expected response arrives.
DEMO_PRODUCTS := notification-bridged notification-terminal-server notification-bridge-demo

demo: deps
	for product in $(DEMO_PRODUCTS); do $(SWIFT) build --product $$product || exit 1; done
	$$($(SWIFT) build --show-bin-path)/notification-bridge-demo $(if $(AUTO),--auto)

# Every public declaration of the library and the model (which DocC publishes with it) has a /// summary; members that
# fulfil a standard protocol (==, hash(into:), Codable, description, iterators, raw values) take the protocol's. Lists
# each one missing and fails.
DOC_CHECKED_SOURCES := Sources/NotificationBridge Sources/NotificationModel
PUBLIC_DECLARATION := ^[[:space:]]*(@[^[:space:]]+[[:space:]]+)*(public|open)[[:space:]]+((static|final|nonisolated|override|mutating|convenience|required|indirect)[[:space:]]+)*(func|var|let|init|struct|enum|class|actor|case|typealias|protocol|subscript)([^A-Za-z0-9_]|$$)
PROTOCOL_MEMBER := func ==|func hash[(]into|init[(]from decoder|func encode[(]to encoder|var description([^A-Za-z0-9_]|$$)|var debugDescription|func makeIterator|func makeAsyncIterator|func next[(]|init[(]rawValue|var rawValue

docs-check:
	@find $(DOC_CHECKED_SOURCES) -name '*.swift' | LC_ALL=C sort | xargs awk \
	    -v declaration='$(PUBLIC_DECLARATION)' -v member='$(PROTOCOL_MEMBER)' ' \
	    FNR == 1 { kept = "" } \
	    $$0 ~ declaration && $$0 !~ member && kept !~ /^[[:space:]]*\/\/\// { \
	        sub(/^[[:space:]]+/, ""); print FILENAME ":" FNR ": " $$0 " (no /// summary)"; missing++ } \
	    { if ($$0 !~ /^[[:space:]]*@/) kept = $$0 } \
	    END { exit missing > 0 }'

# The library's symbol graph, then DocC over the catalogue (own scratch path: other flags). The library's modules are
# compiled again each time, since the compiler writes symbol graphs only when it compiles a module; a warning in any
# of them fails the target, since an app that depends on the library sees it in its own build.
DOCS_SCRATCH := .build-docs
LIBRARY_MODULES := DBusCore FreedesktopNotifications NotificationModel NotificationBridgeAPI ProcessSupport \
    NotificationBridge
docs: deps docs-check
	$(SWIFT) build --build-tests
	NB_DOCS_TESTS=1 $(SWIFT) test --skip-build --filter GettingStartedSnippetTests
	rm -rf $(DOCS_SCRATCH)/symbol-graphs $(foreach module,$(LIBRARY_MODULES),$(DOCS_SCRATCH)/debug/$(module).build/*.o)
	mkdir -p $(DOCS_SCRATCH)/symbol-graphs/all $(DOCS_SCRATCH)/symbol-graphs/library
	$(SWIFT) build --scratch-path $(DOCS_SCRATCH) --target NotificationBridge \
	    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/$(DOCS_SCRATCH)/symbol-graphs/all \
	    >$(DOCS_SCRATCH)/build.log 2>&1; status=$$?; cat $(DOCS_SCRATCH)/build.log; exit $$status
	@if grep 'warning:' $(DOCS_SCRATCH)/build.log | grep -v 'prohibited flag'; then \
	    echo "make docs: the library's modules compile with warnings (above); an app's build shows them" >&2; exit 1; fi
	cp $(DOCS_SCRATCH)/symbol-graphs/all/NotificationBridge.symbols.json \
	    $(DOCS_SCRATCH)/symbol-graphs/all/NotificationBridge@*.symbols.json $(DOCS_SCRATCH)/symbol-graphs/library/
	$$(dirname $$(command -v $(SWIFT)))/docc convert Sources/NotificationBridge/NotificationBridge.docc \
	    --additional-symbol-graph-dir $(DOCS_SCRATCH)/symbol-graphs/library \
	    --fallback-display-name NotificationBridge --fallback-bundle-identifier io.github.NotificationBridge \
	    --transform-for-static-hosting --warnings-as-errors --output-path $(DOCS_SCRATCH)/site
	@echo "Documentation: $(DOCS_SCRATCH)/site/documentation/notificationbridge/index.html"

# The manual pages: written in roff in man/, with the version put in from its one place; a page groff warns about
# fails the target. MAN_OUT/SECTION/PAGE.gz, as man(1) reads them (MAN_OUT=... for another folder).
MAN_OUT ?= .build/man
MAN_PAGES := $(wildcard man/*.[1-8])
VERSION := $(shell sed -n 's/.*static let number = "\(.*\)".*/\1/p' Sources/NotificationBridgeVersion/ProgramVersion.swift)

man: $(MAN_PAGES)
	@command -v groff >/dev/null || { echo "make man needs groff: apt-get install groff-base" >&2; exit 1; }
	@for page in $(MAN_PAGES); do \
	    name=$$(basename "$$page"); section=$${name##*.}; \
	    warnings=$$(groff -ww -man -Tutf8 -z "$$page" 2>&1); \
	    if [ -n "$$warnings" ]; then echo "$$page: $$warnings" >&2; exit 1; fi; \
	    mkdir -p "$(MAN_OUT)/man$$section"; \
	    sed 's/@VERSION@/$(VERSION)/' "$$page" | gzip -9nc >"$(MAN_OUT)/man$$section/$$name.gz" || exit 1; \
	done
	@echo "Manual pages: $(MAN_OUT)"

# The Debian package: `make deb` builds .build/deb/notification-bridge_VERSION_ARCH.deb (static Swift standard
# library, man pages, completions, D-Bus activation, systemd user unit) and runs lintian on it; `make deb-test` (root)
# installs it into a clean Debian root made by debootstrap and posts a notification through D-Bus activation there
# (SUITE=trixie: a trixie root; by default this machine's own release).
DEB_PACKAGES := dpkg-dev lintian debootstrap groff-base

.PHONY: deb deb-test

deb:
	@$(MAKE) --no-print-directory deps TEST_PACKAGES="$(DEB_PACKAGES)"
	SWIFT="$(SWIFT)" packaging/build-deb.sh .build/deb

deb-test: deb
	DEB_TEST_SUITE=$(or $(SUITE),$(HOST_SUITE)) packaging/test-install.sh

clean:
	rm -rf .build .build-docs .build-static $(FUZZ_SCRATCH) $(ASAN_SCRATCH) $(GATES_PLANTED_SCRATCH) Benchmarks/bin \
	    bench-results

# Installed without a package. The programs are built as the .deb ships them (the Swift runtime linked statically),
# so they run without a Swift toolchain. PREFIX is where they run from; DESTDIR (for staging) is prepended only when
# copying. The D-Bus activation file and the systemd unit name the daemon at $(BINDIR).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DBUS_SERVICES_DIR ?= $(DATADIR)/dbus-1/services
DBUS_INTERFACES_DIR ?= $(DATADIR)/dbus-1/interfaces
SYSTEMD_USER_UNIT_DIR ?= $(PREFIX)/lib/systemd/user
BASH_COMPLETION_DIR ?= $(DATADIR)/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(DATADIR)/zsh/site-functions
FISH_COMPLETION_DIR ?= $(DATADIR)/fish/vendor_completions.d
# The programs built, the commands installed (one is a link to another program, which runs it under that name).
INSTALL_PRODUCTS := notification-bridged notification-bridge
INSTALL_COMMANDS := notification-bridged notification-bridge notification-terminal-server
INSTALL_BUILD := -c release $(shell packaging/release-build-flags.sh)
INSTALL_SWIFT_MINIMUM := 6.3

.PHONY: install uninstall

# The programs as make install installs them. Needs Swift 6.3 or later: checked first, with what to do.
release: build-deps
	@version=$$($(SWIFT) --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1); \
	if [ -z "$$version" ] || [ "$$(printf '%s\n%s\n' "$(INSTALL_SWIFT_MINIMUM)" "$$version" | sort -V | head -n 1)" != "$(INSTALL_SWIFT_MINIMUM)" ]; then \
	    echo "make: needs Swift $(INSTALL_SWIFT_MINIMUM) or later, found '$$version'; put a newer toolchain first on PATH or set SWIFT=" >&2; \
	    exit 1; \
	fi
	for product in $(INSTALL_PRODUCTS); do $(SWIFT) build $(INSTALL_BUILD) --product $$product || exit 1; done

install: release man
	@bin=$$($(SWIFT) build $(INSTALL_BUILD) --show-bin-path) && set -e && \
	install -d "$(DESTDIR)$(BINDIR)" && \
	for product in $(INSTALL_PRODUCTS); do install -m 0755 "$$bin/$$product" "$(DESTDIR)$(BINDIR)/$$product"; done && \
	ln -sf notification-bridged "$(DESTDIR)$(BINDIR)/notification-terminal-server" && \
	if [ -n "$(NOTIFY_SEND)" ]; then ln -sf notification-bridge "$(DESTDIR)$(BINDIR)/notify-send"; fi && \
	install -d "$(DESTDIR)$(DBUS_SERVICES_DIR)" "$(DESTDIR)$(DBUS_INTERFACES_DIR)" "$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)" && \
	sed 's|^Exec=/usr/bin/notification-bridged$$|Exec=$(BINDIR)/notification-bridged|' dbus/io.github.NotificationBridge.service \
	    >"$(DESTDIR)$(DBUS_SERVICES_DIR)/io.github.NotificationBridge.service" && \
	install -m 0644 dbus/io.github.NotificationBridge1.xml "$(DESTDIR)$(DBUS_INTERFACES_DIR)/" && \
	sed 's|^ExecStart=/usr/bin/notification-bridged$$|ExecStart=$(BINDIR)/notification-bridged|' packaging/notification-bridged.service \
	    >"$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/notification-bridged.service" && \
	chmod 0644 "$(DESTDIR)$(DBUS_SERVICES_DIR)/io.github.NotificationBridge.service" \
	    "$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/notification-bridged.service" && \
	install -d "$(DESTDIR)$(BASH_COMPLETION_DIR)" "$(DESTDIR)$(ZSH_COMPLETION_DIR)" "$(DESTDIR)$(FISH_COMPLETION_DIR)" && \
	for command in $(INSTALL_COMMANDS); do \
	    "$(DESTDIR)$(BINDIR)/$$command" --generate-completion-script bash | sed '1{/^#!/d}' \
	        >"$(DESTDIR)$(BASH_COMPLETION_DIR)/$$command"; \
	    "$(DESTDIR)$(BINDIR)/$$command" --generate-completion-script zsh >"$(DESTDIR)$(ZSH_COMPLETION_DIR)/_$$command"; \
	    "$(DESTDIR)$(BINDIR)/$$command" --generate-completion-script fish \
	        >"$(DESTDIR)$(FISH_COMPLETION_DIR)/$$command.fish"; \
	done && \
	for page in $(MAN_PAGES); do \
	    name=$$(basename "$$page"); section=$${name##*.}; \
	    install -d "$(DESTDIR)$(MANDIR)/man$$section" && \
	    install -m 0644 "$(MAN_OUT)/man$$section/$$name.gz" "$(DESTDIR)$(MANDIR)/man$$section/"; \
	done
	@echo "Installed under $(DESTDIR)$(PREFIX). A D-Bus session started from now on activates $(BINDIR)/notification-bridged;"
	@echo "the session bus reads $(DBUS_SERVICES_DIR) only if it is in XDG_DATA_DIRS (/usr/local/share is by default)."

uninstall:
	rm -f $(foreach command,$(INSTALL_COMMANDS),"$(DESTDIR)$(BINDIR)/$(command)" \
	    "$(DESTDIR)$(BASH_COMPLETION_DIR)/$(command)" "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_$(command)" \
	    "$(DESTDIR)$(FISH_COMPLETION_DIR)/$(command).fish")
	if [ "$$(readlink "$(DESTDIR)$(BINDIR)/notify-send" 2>/dev/null)" = notification-bridge ]; then \
	    rm -f "$(DESTDIR)$(BINDIR)/notify-send"; fi
	rm -f "$(DESTDIR)$(DBUS_SERVICES_DIR)/io.github.NotificationBridge.service" \
	    "$(DESTDIR)$(DBUS_INTERFACES_DIR)/io.github.NotificationBridge1.xml" \
	    "$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/notification-bridged.service"
	rm -f $(foreach page,$(notdir $(MAN_PAGES)),"$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(page)))/$(page).gz")
