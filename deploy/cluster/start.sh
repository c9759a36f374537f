#!/usr/bin/env bash
# Start a 3-master Redis Cluster on loopback (ports BASE..BASE+2) for local use:
#   deploy/cluster/start.sh 7000 && REDIS_URL=redis+cluster://127.0.0.1:7000 make run
# Without full coverage required, the masters that are up keep serving their slots
# (their games) while another master is down.
set -euo pipefail
base=${1:-7000}
dir=${CLUSTER_DIR:-./data/cluster}
for i in 0 1 2; do
  port=$((base + i))
  mkdir -p "$dir/$port"
  redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes --cluster-config-file nodes.conf \
    --appendonly yes --appendfsync always --cluster-require-full-coverage no --dir "$dir/$port" --daemonize yes --logfile "$dir/$port/redis.log"
done
sleep 1
redis-cli --cluster create 127.0.0.1:"$base" 127.0.0.1:$((base + 1)) 127.0.0.1:$((base + 2)) \
  --cluster-replicas 0 --cluster-yes
