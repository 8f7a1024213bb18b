#!/bin/sh
# Prints the `swift build` flags of the programs the package ships, for packaging/build-deb.sh and
# `make bench STATIC=1`, so that the bench measures the binaries users install. Each flag is kept for what it saves
# at every start or on disk (docs/performance.md says how they are measured):
#
#   --static-swift-stdlib       the Swift runtime inside each program: no Swift toolchain where it is installed
#   -use-ld=lld                 the toolchain's lld, which can pack relative relocations (gold cannot)
#   -z pack-relative-relocs     relative relocations as a bitmap (DT_RELR, glibc 2.36 or later): about 1 MB of
#                               relocation entries less in each program, all of which the loader read at each start
#   --no-export-dynamic         the static runtime's link arguments export every symbol of the program to the dynamic
#                               table, which the loader then searches for each symbol it binds; nothing loads code
#                               into these programs that would look for them
#   -z now                      immediate binding, so that the GOT is read-only after start-up (lintian's
#                               hardening-no-bindnow)
#   --scratch-path .build-static   built apart from the development build, whose flags differ
echo --static-swift-stdlib --scratch-path .build-static \
    -Xswiftc -use-ld=lld \
    -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic -Xlinker -z -Xlinker now
