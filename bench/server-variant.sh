#!/usr/bin/env bash
# Builds another commit's @skein/server for server.bench.ts (before/after pairs in one run) and prints
# the entry to give it: BENCH_SERVER_VARIANTS="<name>=<printed path>". Usage, from the checkout's root
# (core and session-sqlite built first: npm run build):
#   bash bench/server-variant.sh before 8bc30ff        # the built tree (what the bench loads by default)
#   bash bench/server-variant.sh before 8bc30ff src    # its TypeScript (for runs with --conditions=@skein/source)
set -euo pipefail
name=$1 commit=$2 form=${3:-dist}
root=$(pwd)
dir=${TMPDIR:-/tmp}/skein-server-$name
rm -rf "$dir"
mkdir -p "$dir"
git archive "$commit" packages/server | tar -x -C "$dir"
ln -s "$root/node_modules" "$dir/node_modules"
cp tsconfig.base.json "$dir/"
if [ "$form" = src ]; then
  echo "$dir/packages/server/src/index.ts"
else
  # Its own build, against this checkout's built core (no project references to follow).
  cat >"$dir/packages/server/tsconfig.variant.json" <<JSON
{ "extends": "../../tsconfig.base.json",
  "compilerOptions": { "rootDir": "src", "outDir": "dist", "declaration": false, "declarationMap": false },
  "include": ["src"], "exclude": ["src/**/*.test.ts", "src/**/*.test-helpers.ts", "src/testing"] }
JSON
  "$root/node_modules/.bin/tsc" -p "$dir/packages/server/tsconfig.variant.json" >&2
  echo "$dir/packages/server/dist/index.js"
fi
