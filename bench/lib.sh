# Shared by the benchmark scripts (source it): the header every results file
# starts with, so each records the machine, the commit and the date alike.

# bench_header OUT: the lines "# machine", "# commit" (with " (modified)"
# when the work tree differs from it, OUT itself aside), "# date" and
# "# load average at start".
bench_header() {
  local out=$1
  echo "# machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(awk '/MemTotal/ {printf "%d GiB", $2/1048576}' /proc/meminfo)"
  echo "# commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ":(exclude)$out" || echo ' (modified)')"
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# elapsed T0: seconds since T0 (an $EPOCHREALTIME).
elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.6f", b - a}'; }

# timed TAG LIMIT COMMAND...: runs COMMAND with stdout to TAG.out and stderr
# to TAG.err, stopped after LIMIT seconds, and writes TAG.time: the report
# of /usr/bin/time -v and a line "wall S", or, without /usr/bin/time, the
# lines "wall S" and "maxrss_kb KB" (peak memory polled from
# /proc/PID/status every 50 ms). Sets timed_code to the exit code (124: the
# time limit).
timed() {
  local tag=$1 limit=$2 t0=$EPOCHREALTIME
  shift 2
  timed_code=0
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -v -o "$tag.time" timeout -k 10 "$limit" "$@" >"$tag.out" 2>"$tag.err" || timed_code=$?
    echo "wall $(elapsed "$t0")" >>"$tag.time"
  else
    local pid hwm=0 v
    "$@" >"$tag.out" 2>"$tag.err" &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
      v=$(awk '/^VmHWM:/{print $2}' "/proc/$pid/status" 2>/dev/null || true)
      [[ -n $v && $v -gt $hwm ]] && hwm=$v
      if awk -v e="$(elapsed "$t0")" -v l="$limit" 'BEGIN{exit !(e > l)}'; then kill "$pid"; break; fi
      sleep 0.05
    done
    wait "$pid" || timed_code=$?
    [[ $timed_code == 143 ]] && timed_code=124
    printf 'wall %s\nmaxrss_kb %s\n' "$(elapsed "$t0")" "$hwm" >"$tag.time"
  fi
  return 0
}

# timed_how: how timed() measures, for a results file's header.
timed_how() {
  if [[ -x /usr/bin/time ]]; then echo "under /usr/bin/time -v"; else echo "peak memory polled from /proc/PID/status VmHWM every 50 ms"; fi
}

# bench_options NAME ARGS...: what every benchmark script takes and sets up.
# Options: --timeout S (sets limit; default 600), --no-big (sets big=0;
# default 1), --out FILE (sets out; default bench/results/NAME-DATE.csv),
# --old BIN (another build to run before this one, row by row: sets old_bin),
# -h (prints the calling script's header comment). Then sets work (the
# inputs' folder bench/work/NAME, made with its runs/), builds isosynth and
# sets bin to it, and builds to the runs' "which|executable" pairs ("new|$bin",
# after "old|$old_bin" with --old). Call it from the repository's root.
bench_options() {
  local name=$1
  shift
  limit=600
  big=1
  old_bin=""
  out=bench/results/$name-$(date -u +%Y-%m-%d).csv
  while [[ $# -gt 0 ]]; do
    case $1 in
      --timeout) limit=$2; shift 2 ;;
      --no-big) big=0; shift ;;
      --out) out=$2; shift 2 ;;
      --old) old_bin=$(realpath "$2"); shift 2 ;;
      -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
      *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
  done
  work=bench/work/$name
  mkdir -p "$work/runs"
  cmake --build build -j2 --target isosynth >/dev/null
  bin=$PWD/build/isosynth
  builds=("new|$bin")
  [[ -n $old_bin ]] && builds=("old|$old_bin" "new|$bin")
  return 0
}

# bench_database_setup ARGS...: what the database benchmarks share. Reads
# --out FILE (into $out, which the caller sets to its default first) and
# --help (the script's header comment), builds isosynth ($bin), makes a
# scratch folder ($work, removed on exit), and sets ISOSYNTH_PG_URL and
# ISOSYNTH_MYSQL_URL: those given, or servers scripts/databases starts for
# the run and stops on exit.
bench_database_setup() {
  while [[ $# -gt 0 ]]; do
    case $1 in
      --out) out=$2; shift 2 ;;
      --old) old_bin=$(realpath "$2"); shift 2 ;;
      -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
      *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
  done
  cmake --build build -j2 --target isosynth >/dev/null
  bin=$PWD/build/isosynth
  work=$(mktemp -d)
  bench_servers=""
  trap 'bench_database_cleanup' EXIT
  if [[ -z ${ISOSYNTH_PG_URL:-} || -z ${ISOSYNTH_MYSQL_URL:-} ]]; then
    bench_servers=/tmp/isosynth-bench-$$  # short: a Unix socket's path is at most 107 bytes
    scripts/databases start "$bench_servers" >/dev/null
    ISOSYNTH_PG_URL="postgresql:///isosynth?host=$bench_servers&user=postgres"
    ISOSYNTH_MYSQL_URL="mysql://root@localhost/isosynth?socket=$bench_servers/mysql.sock"
  fi
}

bench_database_cleanup() {
  [[ -n ${bench_servers:-} ]] && scripts/databases stop "$bench_servers" >/dev/null 2>&1 || true
  rm -rf "$work"
}
