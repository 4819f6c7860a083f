#!/usr/bin/env bash
# `npm test`'s pretest. Some tests start real Debian programs on free ports with temporary folders:
#   - prometheus: the metrics test (test/integration/runtime/control/prometheus.test.ts) scrapes a
#     running bot;
#   - redis-server: the shared rate budget (issue 15) and the BullMQ sweep queue (issue 16);
#   - strace: the journal test that counts the fsyncs each order pays (issue 17);
#   - chromium: the browser tests of the report and the live page (test/helpers/chromium.ts).
# When one is missing: as root with apt, install it; otherwise stop here with the one command to
# run. Those tests are never skipped.
set -euo pipefail

# binary:package pairs
wanted=("prometheus:prometheus" "redis-server:redis-server" "strace:strace" "chromium:chromium")
missing=()
for pair in "${wanted[@]}"; do
  binary="${pair%%:*}"
  package="${pair##*:}"
  command -v "$binary" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "pretest: installing ${missing[*]} for the tests that start them: apt-get install -y ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y "${missing[@]}" >&2 || { apt-get update >&2 && apt-get install -y "${missing[@]}" >&2; }
  still=()
  for pair in "${wanted[@]}"; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || still+=("${pair##*:}")
  done
  if [ "${#still[@]}" -eq 0 ]; then
    exit 0
  fi
  missing=("${still[@]}")
fi
echo "pretest: the tests need Debian's ${missing[*]}. Run: sudo apt-get install -y ${missing[*]}" >&2
exit 1
