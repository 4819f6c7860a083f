#!/usr/bin/env bash
# `npm test`'s pretest. The metrics test (test/integration/runtime/control/prometheus.test.ts)
# starts Debian's `prometheus` against a running bot. When the binary is missing: as root with
# apt, install it; otherwise stop here with the one command to run. The test is never skipped.
set -euo pipefail

if command -v prometheus >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "pretest: installing prometheus for the metrics test: apt-get install -y prometheus" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y prometheus >&2 || { apt-get update >&2 && apt-get install -y prometheus >&2; }
  if command -v prometheus >/dev/null 2>&1; then
    exit 0
  fi
fi
echo "pretest: the metrics test needs Debian's prometheus binary. Run: sudo apt-get install -y prometheus" >&2
exit 1
