#!/bin/sh
# Build the independent proof checkers drat-trim and lrat-check (Marijn Heule,
# github.com/marijnheule/drat-trim, MIT licence) outside the repository, for
# `satdoku solve/count --proof DIR` and `decode --proof FILE`.
#
#   scripts/build_drat_trim.sh [SOURCE] [DEST]
#
# SOURCE: a checkout of drat-trim, a bare git directory of it, or a git URL
#         (default https://github.com/marijnheule/drat-trim).
# DEST:   where the binaries go (default ~/.local/bin; put it on PATH, or set
#         SATDOKU_DRAT_TRIM and SATDOKU_LRAT_CHECK to the binaries).
# Nothing of drat-trim is committed to satdoku: the build folder is a temporary
# directory, removed at the end. Needs git (for a URL or a bare directory) and gcc.
set -eu
SOURCE=${1:-https://github.com/marijnheule/drat-trim}
DEST=${2:-$HOME/.local/bin}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
if [ -f "$SOURCE/drat-trim.c" ]; then
    cp "$SOURCE"/*.c "$WORK"/
elif [ -d "$SOURCE" ] && git --git-dir="$SOURCE" rev-parse HEAD >/dev/null 2>&1; then
    git --git-dir="$SOURCE" archive HEAD drat-trim.c lrat-check.c | tar -x -C "$WORK"
    echo "drat-trim commit $(git --git-dir="$SOURCE" rev-parse HEAD)"
else
    git clone --depth 1 "$SOURCE" "$WORK/src"
    cp "$WORK"/src/*.c "$WORK"/
    echo "drat-trim commit $(git -C "$WORK/src" rev-parse HEAD)"
fi
mkdir -p "$DEST"
# The flags of drat-trim's own Makefile.
gcc "$WORK/drat-trim.c" -std=c99 -O2 -o "$DEST/drat-trim"
gcc "$WORK/lrat-check.c" -std=c99 -DLONGTYPE -O2 -o "$DEST/lrat-check"
echo "built $DEST/drat-trim and $DEST/lrat-check"
