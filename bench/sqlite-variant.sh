#!/usr/bin/env bash
# Puts another commit's @skein/session-sqlite (its TypeScript) where the SQLite benches can load it
# for before/after pairs in one run, and prints the entry to give them:
# BENCH_SQLITE_VARIANTS="<name>=<printed path>". Usage, from the checkout's root:
#   bash bench/sqlite-variant.sh before 9d1265f
# Runs with --conditions=@skein/source; the variant uses this checkout's node_modules (so this tree's core).
set -euo pipefail
name=$1 commit=$2
root=$(pwd)
dir=${TMPDIR:-/tmp}/skein-sqlite-$name
rm -rf "$dir"
mkdir -p "$dir"
git archive "$commit" packages/session-sqlite | tar -x -C "$dir"
ln -s "$root/node_modules" "$dir/node_modules"
echo "$dir/packages/session-sqlite/src/index.ts"
