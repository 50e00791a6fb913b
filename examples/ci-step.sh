#!/bin/sh
# A CI step: start the mock in the background, wait until it listens, run the given test command
# with MOCK_URL set, and stop the mock whatever the command's outcome (its exit status is kept).
#   sh examples/ci-step.sh npm test
# MOCK_CMD chooses how the mock is started (default: the installed package's bin through npx; the
# single executable: MOCK_CMD=./messaging-api-mock-linux-x64, and then no Node is needed at all);
# MOCK_ARGS adds options (default: a frozen clock, so every run answers byte-identically).
# When the mock stops, its contract line (operations called, warnings) is printed; with
# MOCK_FAIL_ON_WARNINGS=1 a passing test command still fails the step if the mock warned.
set -eu
MOCK_CMD=${MOCK_CMD:-npx --no-install messaging-api-mock}
MOCK_ARGS=${MOCK_ARGS:---now 1700000000}
if [ "${MOCK_FAIL_ON_WARNINGS:-0}" = 1 ]; then MOCK_ARGS="$MOCK_ARGS --fail-on-warnings"; fi
WORK=$(mktemp -d)
READY=$WORK/mock-ready.json
# A member of the ready file, which the mock writes as one line of compact JSON ({"url":…,"port":…,"pid":…}):
# read with sed, so the step needs only a POSIX shell (the single executable brings no Node).
ready_field() {
  sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p" "$READY"
}

# NODE_OPTIONS meant for the test command (ts-node, tsx) is not the mock's: the single executable
# would honour it as Node does.
# shellcheck disable=SC2086 # both are word lists on purpose
NODE_OPTIONS= $MOCK_CMD --port 0 --ready-file "$READY" $MOCK_ARGS >"$READY.log" 2>&1 &
MOCK_PID=$!
# The ready file's pid is the server itself (npx may run it as a child that a signal to npx
# does not reach); SIGTERM drains it and it exits.
stop_mock() {
  if [ -f "$READY" ]; then
    SERVER_PID=$(ready_field pid)
    kill "$SERVER_PID" 2>/dev/null || true
    while kill -0 "$SERVER_PID" 2>/dev/null; do sleep 0.05; done
  fi
  kill "$MOCK_PID" 2>/dev/null || true
  wait "$MOCK_PID" 2>/dev/null || true
}
finish() {
  stop_mock
  rm -rf "$WORK"
}
trap finish EXIT

# The ready file appears only once the port listens (it is written whole, then renamed into place).
tries=0
while [ ! -f "$READY" ]; do
  if ! kill -0 "$MOCK_PID" 2>/dev/null; then cat "$READY.log" >&2; echo "the mock exited before listening" >&2; exit 1; fi
  tries=$((tries + 1))
  if [ "$tries" -gt 300 ]; then echo "the mock did not listen within 30 s" >&2; exit 1; fi
  sleep 0.1
done
MOCK_URL=$(ready_field url)
export MOCK_URL
echo "mock listening on $MOCK_URL"
status=0
"$@" || status=$?
stop_mock
# The mock's last line on stdout is its contract report's summary.
grep '^contract' "$READY.log" | tail -n 1 || true
if [ "$status" -eq 0 ] && grep -q -- '--fail-on-warnings:' "$READY.log"; then
  grep -- '--fail-on-warnings:' "$READY.log" >&2
  exit 1
fi
exit "$status"
