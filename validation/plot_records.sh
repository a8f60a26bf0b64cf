#!/usr/bin/env bash
# scripts/plot's figures from records (not results files): --best-map on the cluster record's
# bench lines, --fft-ratios on the FFT record's, --scaling on the scaling record's; a file
# without such records is one clear error.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cluster=$root/docs/records/2026-11-25-cluster
"$root/scripts/plot" --best-map "emulated=$cluster/emulated-4x2-uniform.jsonl" \
  "simulated=$cluster/simulated-4x2-uniform.jsonl" --out "$work"
"$root/scripts/plot" --fft-ratios "$root/docs/records/2026-11-25-fft/fft.jsonl" --out "$work"
scaling=$root/docs/records/2026-11-26-scaling
"$root/scripts/plot" --scaling "emulated=$scaling/emulated.jsonl" \
  "simulated=$scaling/simulated-dragonfly.jsonl" --out "$work"
for f in best-backend.png fft-ratio.png scaling.png; do
  [ -s "$work/$f" ] || { echo "missing $f"; exit 1; }
done
echo '{"app": "is"}' > "$work/other.jsonl"
if "$root/scripts/plot" --best-map "$work/other.jsonl" --out "$work" 2> "$work/err"; then
  echo "a file without bench records was accepted"; exit 1
fi
grep -q "no bench records in" "$work/err" || { cat "$work/err"; exit 1; }
if "$root/scripts/plot" --scaling "$work/other.jsonl" --out "$work" 2> "$work/err"; then
  echo "--scaling accepted a file without bench records"; exit 1
fi
grep -q "no bench records in" "$work/err" || { cat "$work/err"; exit 1; }
echo "plot records: 5 passed, 0 failed"
