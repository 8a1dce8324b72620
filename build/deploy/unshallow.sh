#!/bin/sh
# Deepen a shallow clone before a deploy's build: the change feed needs content/'s
# whole git history, and a deploy builds with REQUIRE_HISTORY=on, which refuses a
# shallow clone. A Git-connected Netlify build (netlify.toml's command) may get one.
set -e
if [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then
  if ! git fetch --unshallow --quiet; then
    echo "✗ this clone is shallow and git fetch --unshallow failed: clone with the full history (fetch-depth: 0)" >&2
    exit 1
  fi
  echo "✓ deepened the shallow clone: the build reads the whole history"
fi
