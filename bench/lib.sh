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
