#!/usr/bin/env bash
# The Parquet figures of benchmarks/README.md: a generated tick table of ROWS rows (default 100,000,000; about
# 2.1 GB of CSV and 1.6 GB of table, under $LISTMMF_BENCH_DIR or the temp directory), exported to Parquet (snappy,
# then zstd) and imported back, two rounds, then once each under a 128 MiB GC heap limit. Every step prints its
# time and rows/s (the tool's own line), and the peaks of RssAnon (the process's memory) and RssFile (the mapped
# table's pages), sampled from /proc every 20 ms (Linux). Run it alone on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-100000000}
work="${LISTMMF_BENCH_DIR:-${TMPDIR:-/tmp}/listmmf-benchmarks}/parquet-$rows"
mkdir -p "$work"
dotnet build src/ListMmf.Tool -c Release -f net10.0 -v q > /dev/null
dotnet build benchmarks/ListMmf.Benchmarks -c Release -v q > /dev/null
tool="dotnet src/ListMmf.Tool/bin/Release/net10.0/ListMmf.Tool.dll"

peak() {
  "$@" & local pid=$! anon=0 file=0 a f
  while kill -0 "$pid" 2> /dev/null; do
    if a=$(awk '/^RssAnon/ { print $2 }' "/proc/$pid/status" 2> /dev/null) && f=$(awk '/^RssFile/ { print $2 }' "/proc/$pid/status" 2> /dev/null); then
      [ -n "$a" ] && [ "$a" -gt "$anon" ] && anon=$a
      [ -n "$f" ] && [ "$f" -gt "$file" ] && file=$f
    fi
    sleep 0.02
  done
  local rc=0
  wait "$pid" || rc=$?
  echo "  peak RssAnon $((anon / 1024)) MiB, peak RssFile $((file / 1024)) MiB, exit $rc"
}

if [ ! -d "$work/table" ]; then
  [ -f "$work/ticks.csv" ] || dotnet benchmarks/ListMmf.Benchmarks/bin/Release/net10.0/ListMmf.Benchmarks.dll csv-sample --rows "$rows" --out "$work/ticks.csv"
  echo "import csv"; peak $tool import csv "$work/ticks.csv" --out "$work/table" --time time --column price:double --column size:int --order ascending-or-equal
fi
for round in 1 2; do
  rm -rf "$work/back" "$work/snappy.parquet" "$work/zstd.parquet"
  echo "round $round: export parquet (snappy)"; peak $tool export parquet "$work/table" --out "$work/snappy.parquet"
  echo "round $round: export parquet (zstd)"; peak $tool export parquet "$work/table" --out "$work/zstd.parquet" --compression zstd
  echo "round $round: import parquet"; peak $tool import parquet "$work/snappy.parquet" --out "$work/back"
done
ls -l "$work/snappy.parquet" "$work/zstd.parquet"
rm -rf "$work/back"
export DOTNET_GCHeapHardLimit=0x8000000
echo "128 MiB GC heap limit: export parquet"; peak $tool export parquet "$work/table" --out "$work/snappy.parquet"
echo "128 MiB GC heap limit: import parquet"; peak $tool import parquet "$work/snappy.parquet" --out "$work/back"
echo "files are in $work"
