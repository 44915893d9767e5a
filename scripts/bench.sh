#!/usr/bin/env bash
# Builds and runs the benchmarks; machine-readable results go to build/bench-*.json.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
build/bin/bench_evaluate --benchmark_format=json --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out=build/bench-evaluate.json --benchmark_out_format=json "$@"
