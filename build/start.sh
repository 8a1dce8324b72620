#!/bin/sh
# npm start: build dist/, then serve it in this process's place (exec), so that the
# signals a supervisor sends reach the gateway itself. npm passes a user's arguments
# after the whole script, and npm start takes no options of its own: any argument
# (--help, a mistyped option) goes to the server's parser, which answers before
# anything is built.
run="$(dirname "$0")/run.mjs"
if [ $# -gt 0 ]; then exec node "$run" serve "$@"; fi
# --v8-pool-size=0: V8's background threads sized to the machine (build/run.mjs says why).
node --v8-pool-size=0 "$run" cli build && exec node "$run" serve
