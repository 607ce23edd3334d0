#!/usr/bin/env bash
# A Spark standalone cluster on this machine (loopback only): one master and N workers,
# started from the pyspark installation of the project's .venv. For trying the `cluster`
# target of profiles/profiles.yml and for tests/pytest/test_cluster.py.
#
#   scripts/spark-cluster.sh start     start master + workers, wait until all are registered
#   scripts/spark-cluster.sh stop      stop the workers (and their executors), then the master
#   scripts/spark-cluster.sh status    print what runs; exit 0 only if master and all workers run
#   scripts/spark-cluster.sh env       print the exports that point the `cluster` target here
#
# Settings (environment):
#   CDC_CLUSTER_DIR        logs, pid files, worker work dirs (default .spark-cluster/, git-ignored)
#   SPARK_MASTER_PORT      master RPC port (default 7077)
#   SPARK_MASTER_WEBUI_PORT  master web UI port (default 8080)
#   CDC_CLUSTER_WORKERS    number of workers (default 2)
#   SPARK_WORKER_CORES     cores per worker (default 1)
#   SPARK_WORKER_MEMORY    memory per worker for executors (default 1g)
#   CDC_VENV               the virtual environment with pyspark (default .venv)
set -euo pipefail

PROJECT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${CDC_VENV:-$PROJECT_DIR/.venv}"
CLUSTER_DIR="${CDC_CLUSTER_DIR:-$PROJECT_DIR/.spark-cluster}"
HOST=127.0.0.1
MASTER_PORT="${SPARK_MASTER_PORT:-7077}"
MASTER_WEBUI_PORT="${SPARK_MASTER_WEBUI_PORT:-8080}"
WORKERS="${CDC_CLUSTER_WORKERS:-2}"
WORKER_CORES="${SPARK_WORKER_CORES:-1}"
WORKER_MEMORY="${SPARK_WORKER_MEMORY:-1g}"
MASTER_URL="spark://$HOST:$MASTER_PORT"
START_TIMEOUT="${CDC_CLUSTER_START_TIMEOUT:-120}"

die() { echo "spark-cluster: $*" >&2; exit 1; }

spark_home() {
  [ -x "$VENV/bin/python" ] || die "no $VENV/bin/python: run 'make install' first"
  "$VENV/bin/python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))'
}

# pid of a daemon if its pid file names a live process, else nothing
running_pid() {
  local file="$CLUSTER_DIR/pids/$1.pid" pid
  [ -f "$file" ] || return 1
  pid="$(cat "$file")"
  if kill -0 "$pid" 2>/dev/null; then echo "$pid"; else return 1; fi
}

port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

launch() {  # name, class, args...: start one daemon in the background, record its pid
  local name="$1"; shift
  local class="$1"; shift
  if running_pid "$name" >/dev/null; then
    echo "$name already running (pid $(running_pid "$name"))"
    return 0
  fi
  # setsid: own process group, so a Ctrl-C in the calling shell does not reach the daemon
  setsid nohup "$SPARK_HOME/bin/spark-class" "$class" "$@" \
    >"$CLUSTER_DIR/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$CLUSTER_DIR/pids/$name.pid"
  echo "started $name (pid $!), log $CLUSTER_DIR/logs/$name.log"
}

start() {
  java -version >/dev/null 2>&1 || die "java is not on PATH (Spark needs Java 17 or 21)"
  SPARK_HOME="$(spark_home)"
  export SPARK_HOME
  mkdir -p "$CLUSTER_DIR/logs" "$CLUSTER_DIR/pids" "$CLUSTER_DIR/work"
  export SPARK_LOCAL_IP="$HOST"
  export SPARK_DAEMON_MEMORY="${SPARK_DAEMON_MEMORY:-256m}"
  export SPARK_LOG_DIR="$CLUSTER_DIR/logs"
  # executors start Python workers with this interpreter unless the application says otherwise
  export PYSPARK_PYTHON="${PYSPARK_PYTHON:-$VENV/bin/python}"

  if ! running_pid master >/dev/null && port_open "$MASTER_PORT"; then
    die "port $MASTER_PORT is taken by another process: set SPARK_MASTER_PORT"
  fi
  launch master org.apache.spark.deploy.master.Master \
    --host "$HOST" --port "$MASTER_PORT" --webui-port "$MASTER_WEBUI_PORT"
  local waited=0
  until port_open "$MASTER_PORT"; do
    running_pid master >/dev/null || die "master exited, see $CLUSTER_DIR/logs/master.log"
    sleep 1; waited=$((waited + 1))
    [ "$waited" -lt "$START_TIMEOUT" ] || die "master not listening after ${START_TIMEOUT}s"
  done

  local i
  for i in $(seq 1 "$WORKERS"); do
    mkdir -p "$CLUSTER_DIR/work/worker-$i"
    # web UI port 0: any free port (several workers on one host)
    launch "worker-$i" org.apache.spark.deploy.worker.Worker \
      --host "$HOST" --cores "$WORKER_CORES" --memory "$WORKER_MEMORY" \
      --work-dir "$CLUSTER_DIR/work/worker-$i" --webui-port 0 "$MASTER_URL"
  done
  for i in $(seq 1 "$WORKERS"); do
    waited=0
    until grep -q "Successfully registered with master" "$CLUSTER_DIR/logs/worker-$i.log" 2>/dev/null; do
      running_pid "worker-$i" >/dev/null || die "worker-$i exited, see $CLUSTER_DIR/logs/worker-$i.log"
      sleep 1; waited=$((waited + 1))
      [ "$waited" -lt "$START_TIMEOUT" ] || die "worker-$i not registered after ${START_TIMEOUT}s"
    done
  done
  echo "cluster up: $MASTER_URL ($WORKERS workers x $WORKER_CORES core, $WORKER_MEMORY), web UI http://$HOST:$MASTER_WEBUI_PORT"
}

stop_one() {
  local name="$1" pid waited=0
  if pid="$(running_pid "$name")"; then
    kill -TERM "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do
      sleep 1; waited=$((waited + 1))
      if [ "$waited" -ge 30 ]; then kill -KILL "$pid" 2>/dev/null || true; break; fi
    done
    echo "stopped $name (pid $pid)"
  fi
  rm -f "$CLUSTER_DIR/pids/$name.pid"
}

stop() {
  [ -d "$CLUSTER_DIR/pids" ] || { echo "nothing to stop"; return 0; }
  local file name
  # workers first (each stops its executors), then the master
  for file in "$CLUSTER_DIR"/pids/worker-*.pid; do
    [ -e "$file" ] || continue
    name="$(basename "$file" .pid)"
    stop_one "$name"
  done
  stop_one master
}

status() {
  local ok=0 i pid
  if pid="$(running_pid master)"; then echo "master   running (pid $pid) $MASTER_URL"; else echo "master   not running"; ok=3; fi
  for i in $(seq 1 "$WORKERS"); do
    if pid="$(running_pid "worker-$i")"; then echo "worker-$i running (pid $pid)"; else echo "worker-$i not running"; ok=3; fi
  done
  return "$ok"
}

print_env() {
  cat <<ENV
export CDC_TARGET=cluster
export SPARK_MASTER_URL=$MASTER_URL
export CDC_EXECUTOR_MEMORY=$WORKER_MEMORY
export CDC_WAREHOUSE_DIR=$PROJECT_DIR/.cdc_local/cluster_warehouse
export SPARK_LOCAL_IP=$HOST
ENV
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  env) print_env ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
