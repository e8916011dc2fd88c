#!/usr/bin/env bash
# `npm test`'s first half: typecheck, lint, the layers and the build, in two lanes at once. Each step
# is one single-threaded process (tsc, ESLint, Vite), so on a 2-core machine two lanes take about half
# the time of one. The storefront's generated GraphQL types come first: both lanes read them.
set -uo pipefail
cd "$(dirname "$0")/.."

npm run -s codegen:web || exit 1

# Lane 1: the types of everything (server, tests, bench, storefront) and the import layers.
( npx tsc --noEmit && npx tsc -p web/tsconfig.json && npm run -s check:layers ) &
types=$!
# Lane 2: ESLint, then the build the suite serves (dist/ and the storefront's bundle).
npm run -s lint && npx tsc -p tsconfig.build.json && npx vite build --config web/vite.config.ts
built=$?
wait "$types"
typed=$?

[ "$typed" -eq 0 ] || echo "check-and-build: typecheck or layers failed" >&2
[ "$built" -eq 0 ] || echo "check-and-build: lint or build failed" >&2
[ "$typed" -eq 0 ] && [ "$built" -eq 0 ]
