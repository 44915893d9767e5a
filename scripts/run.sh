#!/usr/bin/env bash
# Installs what is missing, builds into build/, and opens PlanScope on the default sample plan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
plan=${1:-samples/plans/default.plan.json}
[ $# -gt 0 ] && shift
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "scripts/run.sh: no display; opening under xvfb-run (use --screenshot out.png to see it)"
  exec xvfb-run -a build/bin/planscope --plan "$plan" "$@"
fi
exec build/bin/planscope --plan "$plan" "$@"
