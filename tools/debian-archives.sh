#!/usr/bin/env bash
# Prints the Debian archives of a suite, one "URI SUITE COMPONENT" line each: the suite itself, its -updates and its
# -security archive, taken from this machine's apt sources (main only, the Debian origin, this machine's architecture).
#
#   tools/debian-archives.sh SUITE
#
# A machine lists the archives of its own release only (a bookworm machine: bookworm, bookworm-updates and
# bookworm-security). For another suite the same hosts serve it under its own name, so the lines of the machine's
# release are reused with the suite's name: the main archive's URI for SUITE and SUITE-updates, the security
# archive's URI for SUITE-security. Backports and proposed updates are left out.
#
# Fails with a message when this machine lists no Debian archive at all.
set -euo pipefail

suite=${1:?usage: tools/debian-archives.sh SUITE}
arch=$(dpkg --print-architecture)

# Every Debian "main" index apt knows of, as "URI RELEASE COMPONENT" (apt fills in the $(...) fields itself).
# shellcheck disable=SC2016
targets=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' \
    'Identifier: Packages' 'Origin: Debian' "Architecture: $arch" 'Component: main' | sort -u)
[ -n "$targets" ] || {
    echo "debian-archives: this machine's apt sources list no Debian archive; add one or set a mirror" >&2
    exit 1
}

# The suite's own lines when the machine lists it; else the machine's release lines renamed. A release name's
# suffix (after the first '-') says which archive it is.
awk -v suite="$suite" '
    {
        base = $2; kind = ""
        if (index($2, "-")) { base = substr($2, 1, index($2, "-") - 1); kind = substr($2, index($2, "-")) }
    }
    kind != "" && kind != "-updates" && kind != "-security" { next }
    base == suite { own[++owns] = $1 " " $2 " " $3; next }
    !(kind in uri) { uri[kind] = $1 }
    END {
        if (owns) { for (i = 1; i <= owns; i++) print own[i]; exit }
        if ("" in uri) { print uri[""] " " suite " main"; print uri[""] " " suite "-updates main" }
        if ("-security" in uri) print uri["-security"] " " suite "-security main"
    }' <<<"$targets"
