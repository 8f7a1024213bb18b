#!/usr/bin/env bash
# Builds the Debian package notification-bridge from this tree: release binaries linked against the static Swift
# standard library (no Swift toolchain needed where the package is installed), the D-Bus activation file, the
# systemd user unit, the interface XML, the manual pages of man/, shell completions, README.Debian and the copyright
# file.
#
#   packaging/build-deb.sh [OUTPUT_DIRECTORY]      (default: .build/deb)
#
# The package version is the one in packaging/changelog; the programs must report the same upstream version.
# Environment: SWIFT (default swift), LINTIAN=0 to skip lintian.
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
OUT=$(mkdir -p "${1:-.build/deb}" && cd "${1:-.build/deb}" && pwd)
PACKAGE=notification-bridge
STAGE="$OUT/stage"
ROOT="$STAGE/root"

die() { echo "build-deb: $*" >&2; exit 1; }

VERSION=$(dpkg-parsechangelog -l packaging/changelog -S Version)
UPSTREAM_VERSION=${VERSION%-*}
# Dates inside the package (manual pages, file times) are the changelog's, so a rebuild is byte-for-byte the same.
SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l packaging/changelog -S Timestamp)
export SOURCE_DATE_EPOCH
ARCH=$(dpkg --print-architecture)

# The programs built: the daemon and the CLI. The terminal notification server is the daemon's program under its own
# name (a link), which runs it when started so: one static program less in the package. The CLI stays apart: it would
# otherwise load GIO and SQLite at each start.
PRODUCTS=(notification-bridged notification-bridge)
# The commands installed, each with its manual page and completions; LINKS maps a command to the program it runs.
PROGRAMS=(notification-bridged notification-bridge notification-terminal-server)
declare -A LINKS=([notification-terminal-server]=notification-bridged)

# The flags of the shipped programs, which `make bench STATIC=1` measures too.
read -r -a BUILD_FLAGS <<<"-c release $(packaging/release-build-flags.sh)"
for product in "${PRODUCTS[@]}"; do
    echo "build-deb: building $product (release, static Swift standard library)"
    "$SWIFT" build "${BUILD_FLAGS[@]}" --product "$product"
done
BIN=$("$SWIFT" build "${BUILD_FLAGS[@]}" --show-bin-path)

for program in notification-bridged notification-bridge; do
    reported=$("$BIN/$program" --version)
    [ "${reported##* }" = "$UPSTREAM_VERSION" ] \
        || die "$program --version says '$reported' but packaging/changelog is at $UPSTREAM_VERSION; make them agree"
done

rm -rf "$STAGE"
mkdir -p "$ROOT/DEBIAN"
for product in "${PRODUCTS[@]}"; do
    install -D -m 0755 "$BIN/$product" "$ROOT/usr/bin/$product"
    # Symbols only: the Swift metadata sections the runtime reads stay.
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$ROOT/usr/bin/$product"
    if ldd "$ROOT/usr/bin/$product" | grep 'libswift' >/dev/null; then
        die "$product still links a Swift runtime library dynamically: $(ldd "$ROOT/usr/bin/$product" | grep libswift)"
    fi
done
for link in "${!LINKS[@]}"; do
    ln -s "${LINKS[$link]}" "$ROOT/usr/bin/$link"
done

install -D -m 0644 dbus/io.github.NotificationBridge.service \
    "$ROOT/usr/share/dbus-1/services/io.github.NotificationBridge.service"
install -D -m 0644 dbus/io.github.NotificationBridge1.xml \
    "$ROOT/usr/share/dbus-1/interfaces/io.github.NotificationBridge1.xml"
install -D -m 0644 packaging/notification-bridged.service \
    "$ROOT/usr/lib/systemd/user/notification-bridged.service"
grep -q '^Exec=/usr/bin/notification-bridged$' dbus/io.github.NotificationBridge.service \
    || die "dbus/io.github.NotificationBridge.service needs Exec=/usr/bin/notification-bridged (used without systemd)"

# Manual pages: the written pages of man/ (the commands, the D-Bus interface, settings.ini), checked by groff and
# compressed by `make man`, with the version put in.
make --no-print-directory man MAN_OUT="$STAGE/man"
for program in "${PROGRAMS[@]}"; do
    ls "$STAGE"/man/man[18]/"$program".[18].gz >/dev/null 2>&1 || die "man/ has no manual page for $program"
done
mkdir -p "$ROOT/usr/share/man"
cp -R "$STAGE"/man/man* "$ROOT/usr/share/man/"

# Shell completions of every program (each one's argument parser writes them), in the places each shell's packaging
# reads.
install -d "$ROOT/usr/share/bash-completion/completions" "$ROOT/usr/share/zsh/vendor-completions" \
    "$ROOT/usr/share/fish/vendor_completions.d"
for program in "${PROGRAMS[@]}"; do
    # bash-completion sources the file: the generator's #! line is dropped.
    "$ROOT/usr/bin/$program" --generate-completion-script bash | sed '1{/^#!/d}' \
        >"$ROOT/usr/share/bash-completion/completions/$program"
    "$ROOT/usr/bin/$program" --generate-completion-script zsh >"$ROOT/usr/share/zsh/vendor-completions/_$program"
    "$ROOT/usr/bin/$program" --generate-completion-script fish \
        >"$ROOT/usr/share/fish/vendor_completions.d/$program.fish"
done

DOC="$ROOT/usr/share/doc/$PACKAGE"
install -D -m 0644 packaging/copyright "$DOC/copyright"
install -D -m 0644 packaging/README.Debian "$DOC/README.Debian"
gzip -9nc packaging/changelog >"$DOC/changelog.Debian.gz"
# Each override there says why (lintian shows the comment with the tag).
if [ -f packaging/lintian-overrides ]; then
    install -D -m 0644 packaging/lintian-overrides "$ROOT/usr/share/lintian/overrides/$PACKAGE"
fi

# Depends: what the binaries link (dpkg-shlibdeps reads it from the installed libraries' shlibs/symbols files),
# plus a session bus to serve on.
SHLIBDEPS_DIR="$STAGE/shlibdeps"
mkdir -p "$SHLIBDEPS_DIR/debian"
printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$PACKAGE" "$PACKAGE" >"$SHLIBDEPS_DIR/debian/control"
SHLIBS_DEPENDS=$(cd "$SHLIBDEPS_DIR" && dpkg-shlibdeps -O "${PRODUCTS[@]/#/$ROOT/usr/bin/}" \
    | sed -n 's/^shlibs:Depends=//p')
[ -n "$SHLIBS_DEPENDS" ] || die "dpkg-shlibdeps found no library dependencies"
# Packed relative relocations need the loader of glibc 2.36: the programs ask for the version GLIBC_ABI_DT_RELR,
# which dpkg-shlibdeps does not look at (it reads symbols), so an older libc6 would be accepted and the programs
# would not start ("version `GLIBC_ABI_DT_RELR' not found").
for program in "${PRODUCTS[@]}"; do
    # Not grep -q, for the reason given above: readelf's SIGPIPE would make the test false under pipefail.
    if readelf -V "$ROOT/usr/bin/$program" | grep 'GLIBC_ABI_DT_RELR' >/dev/null; then
        NEEDED=$(sed -n 's/.*libc6 (>= \([^)]*\)).*/\1/p' <<<"$SHLIBS_DEPENDS")
        if [ -z "$NEEDED" ] || dpkg --compare-versions "$NEEDED" lt 2.36; then
            SHLIBS_DEPENDS=$(sed 's/libc6 (>= [^)]*)/libc6 (>= 2.36)/' <<<"$SHLIBS_DEPENDS")
        fi
        break
    fi
done
grep -q 'libc6 (>= ' <<<"$SHLIBS_DEPENDS" || die "no versioned libc6 in the dependencies: $SHLIBS_DEPENDS"

INSTALLED_SIZE=$(du -sk --exclude=DEBIAN "$ROOT" | cut -f1)
# The package may not grow past its budget (KiB). The goal is 10 MB, under the floor of two static programs (the
# docs/performance.md gives the targets); the budget holds what they weigh now, so that growth is a decision.
MAX_INSTALLED_SIZE=${MAX_INSTALLED_SIZE:-36160}
if [ "$INSTALLED_SIZE" -gt "$MAX_INSTALLED_SIZE" ]; then
    die "the package would take $INSTALLED_SIZE KiB installed, over its budget of $MAX_INSTALLED_SIZE KiB:" \
        "$(cd "$ROOT" && du -k usr/bin/* | tr '\t\n' ' ')— find what grew, or raise MAX_INSTALLED_SIZE in" \
        "packaging/build-deb.sh and say why"
fi
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/" -e "s/@INSTALLED_SIZE@/$INSTALLED_SIZE/" \
    -e "s/@SHLIBS_DEPENDS@/$SHLIBS_DEPENDS/" packaging/control.in >"$ROOT/DEBIAN/control"

find "$ROOT" -path "$ROOT/DEBIAN" -prune -o -type d -exec chmod 0755 {} +
find "$ROOT/usr/share" -type f -exec chmod 0644 {} +
(cd "$ROOT" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$ROOT/DEBIAN/md5sums"
chmod 0644 "$ROOT/DEBIAN/control" "$ROOT/DEBIAN/md5sums"
find "$ROOT" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

DEB="$OUT/${PACKAGE}_${VERSION}_${ARCH}.deb"
rm -f "$OUT/${PACKAGE}_"*.deb
dpkg-deb --root-owner-group -Zxz --build "$ROOT" "$DEB"
echo "build-deb: built $DEB"
dpkg-deb --info "$DEB" | sed -n '/Package:/,$p'

if [ "${LINTIAN:-1}" != 0 ]; then
    # Errors fail the build; warnings are printed (each one left is explained in packaging/lintian-overrides or
    # accepted in the notes there).
    lintian --fail-on error --display-info --allow-root "$DEB"
fi
