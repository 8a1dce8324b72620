#!/bin/sh
# npm start: build dist/, then serve it in this process's place (exec), so that the
# signals a supervisor sends reach the gateway itself. npm passes a user's arguments
# after the whole script, and npm start takes no options of its own: any argument
# (--help, a mistyped option) goes to the server's parser, which answers before
# anything is built.
run="$(dirname "$0")/run.mjs"
# --max-semi-space-size: the gateway's young generation kept small. V8 sizes it by the machine's
# memory, and a server's garbage is short-lived: a large one only holds dead requests in memory
# (BENCHMARKS.md, "Where the gateway's memory goes"). --heap-growing-percent: the old generation
# collected when it has grown by half of what was live, not by the up-to-fourfold V8 allows on a host
# with much memory, where a bigger site kept proportionally more dead objects between collections.
# The Dockerfile's CMD and the bench start it alike.
serve_flags="--max-semi-space-size=8 --heap-growing-percent=50"
if [ $# -gt 0 ]; then exec node $serve_flags "$run" serve "$@"; fi
# --v8-pool-size=0: V8's background threads sized to the machine (build/run.mjs says why).
node --v8-pool-size=0 "$run" cli build && exec node $serve_flags "$run" serve
