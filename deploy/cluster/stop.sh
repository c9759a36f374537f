#!/usr/bin/env bash
# Stop the cluster started by start.sh (same BASE port).
set -euo pipefail
base=${1:-7000}
for i in 0 1 2; do redis-cli -p $((base + i)) shutdown nosave || true; done
