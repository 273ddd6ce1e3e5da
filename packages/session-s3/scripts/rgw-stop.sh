#!/usr/bin/env bash
# Stops what rgw-start.sh DIR started (gateway, then OSD, then monitor) and removes DIR.
# usage: rgw-stop.sh DIR
set -uo pipefail
dir=$1
stop() {
  local pidfile="$dir/run/$1.pid" pid
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    # A zombie (no parent reaping it) has exited already.
    grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null && return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null
}
stop client.rgw.a
stop osd.0
stop mon.a
rm -rf "$dir"
