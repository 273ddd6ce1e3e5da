#!/usr/bin/env bash
# npm run lint: three checks, run side by side (a hook gives the whole command 45 s), each one's output
# printed whole; the command fails if any failed, after showing every finding.
#  1. biome: formatting (print width 120) and its linter, which has one rule: no `any` (biome.json).
#  2. import-cycles: value-import cycles in packages/*/src fail; type-only ones are reported
#     (scripts/import-cycles.ts).
#  3. knip: unused files, exports, types and dependencies in every workspace (knip.jsonc; --cache keeps
#     what it learned of unchanged files in node_modules/.cache/knip).
set -u
cd "$(dirname "$0")/.."
bin=node_modules/.bin
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin/biome" check --colors=off . >"$out/biome" 2>&1 &
biome=$!
node --import tsx scripts/import-cycles.ts >"$out/import-cycles" 2>&1 &
cycles=$!
"$bin/knip" --no-progress --cache >"$out/knip" 2>&1 &
knip=$!
failed=()
for check in biome:$biome import-cycles:$cycles knip:$knip; do
  name=${check%%:*}
  wait "${check##*:}" || failed+=("$name")
  echo "── $name"
  cat "$out/$name"
done
if ((${#failed[@]} > 0)); then
  echo "lint failed: ${failed[*]}" >&2
  exit 1
fi
echo "lint passed: formatted, no any, no value-import cycle, no unused file, export or dependency"
