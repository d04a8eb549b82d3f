#!/usr/bin/env bash
# Obtaining a dataset: `odf-hash fetch` (each object hashed while it streams to disk, renamed
# into place when it matches; blocks checked first, refs/head last) next to a plain parallel
# download of the same files by curl (--parallel, as many transfers at once as fetch's
# --jobs; nothing checked), over one loopback HTTP server (bench/serve: Go's net/http, built
# once into build/bench-tools/, started and stopped here), on the root dataset of
# bench/remote.sh (about 1 GiB of data files: bench/make_remote_dataset.py, 32 files). Then,
# when the kamu CLI is there (../shared/tools/kamu/kamu or $ODF_KAMU), the same dataset served
# by a kamu node (`kamu system api-server` on 127.0.0.1): `odf-hash fetch` of its URL, by the
# Simple and the Smart Transfer Protocol, next to `kamu pull` of it into a new workspace.
# Wall time, CPU time and peak RSS (/usr/bin/time), alternating runs, medians; every copy
# must equal the source (same files, same bytes).
#
# Knobs (environment): see bench/lib.sh; BENCH_FETCH_MIB (default 1024, quick 128),
# BENCH_FETCH_RUNS (default 3, quick 1), BENCH_FETCH_JOBS (default 16: odf-hash's default for
# a URL).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  MIB="${BENCH_FETCH_MIB:-128}"
  FETCH_RUNS="${BENCH_FETCH_RUNS:-1}"
else
  MIB="${BENCH_FETCH_MIB:-1024}"
  FETCH_RUNS="${BENCH_FETCH_RUNS:-3}"
fi
JOBS="${BENCH_FETCH_JOBS:-16}"
KAMU="$(readlink -f "${ODF_KAMU:-../shared/tools/kamu/kamu}" || true)"
[ -x /usr/bin/time ] || { echo "fetch.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
command -v curl >/dev/null || { echo "fetch.sh: curl missing" >&2; exit 2; }
SERVE=build/bench-tools/serve
if [ ! -x "$SERVE" ] || [ bench/serve/main.go -nt "$SERVE" ]; then
  command -v go >/dev/null || { echo "fetch.sh: go missing (it builds bench/serve)" >&2; exit 2; }
  mkdir -p build/bench-tools
  (cd bench/serve && GOFLAGS=-mod=mod go build -o ../../"$SERVE" .)
fi

dataset="$DATA/fetch-${MIB}MiB"
"$PYTHON" bench/make_remote_dataset.py "$dataset" --mib "$MIB" --files 32 --schema
bytes=$(du -sb "$dataset/data" | cut -f1)
# The server reads the dataset from the page cache in every timed run: read it once here
# (untimed), else the first command pays for reading it from disk (3.9 s against 1.2 s).
find "$dataset" -type f -exec cat {} + >/dev/null

out=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$out"
}
trap cleanup EXIT
free_port() { "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() {  # URL: until it answers (30 s at most)
  for _ in $(seq 300); do curl -sf -o /dev/null "$1" && return 0; sleep 0.1; done
  echo "fetch.sh: $1 does not answer" >&2
  return 1
}

# timed NAME CMD...: CMD under /usr/bin/time; "wall rss_kb user_s sys_s" appended to
# $out/NAME.times, its output to $out/NAME.out. A failing command fails the script.
timed() {
  local name="$1"
  shift
  /usr/bin/time -o "$out/time" -f '%e %M %U %S' "$@" >"$out/$name.out" 2>"$out/$name.err" || {
    echo "fetch.sh: $name failed:" >&2
    cat "$out/$name.out" "$out/$name.err" >&2
    exit 1
  }
  tail -1 "$out/time" >>"$out/$name.times"
}
# same_files A B: the dataset files of A and B are the same names and bytes.
same_files() {
  (cd "$1" && find refs blocks data checkpoints -type f 2>/dev/null || true) | sort >"$out/a.list"
  (cd "$2" && find refs blocks data checkpoints -type f 2>/dev/null || true) | sort >"$out/b.list"
  cmp -s "$out/a.list" "$out/b.list" || { echo "fetch.sh: $2 has other files than $1" >&2; exit 1; }
  while read -r f; do
    cmp -s "$1/$f" "$2/$f" || { echo "fetch.sh: $2/$f differs" >&2; exit 1; }
  done <"$out/a.list"
}
row() {  # NAME LABEL
  local t c m
  t=$(median $(cut -d' ' -f1 "$out/$1.times"))
  c=$(median $(awk '{ print $3 + $4 }' "$out/$1.times"))
  m=$(median $(cut -d' ' -f2 "$out/$1.times"))
  printf '  %-58s %8.2f %8.2f %10.1f %13.1f\n' "$2" "$t" "$c" "$(mbps "$bytes" "$t")" \
    "$(ratio "$m" 1024)"
  echo "$t" >"$out/$1.median"
}
header() {
  printf '  %-58s %8s %8s %10s %13s\n' "command" "wall s" "cpu s" "MB/s" "peak RSS MiB"
}

# --- 1. a static HTTP server: fetch against curl --parallel -----------------------------
port=$(free_port)
setsid "$SERVE" "$dataset" "$port" >"$out/http.log" 2>&1 &
pids+=($!)
base="http://127.0.0.1:$port"
wait_for "$base/refs/head"
(cd "$dataset" && find refs blocks data checkpoints -type f 2>/dev/null || true) | sort |
  while read -r f; do printf 'url = "%s/%s"\noutput = "%s"\n' "$base" "$f" "$f"; done \
  >"$out/curl.config"
for ((i = 0; i < FETCH_RUNS; i++)); do
  rm -rf "$out/ours" "$out/peer"
  # Each command starts with no dirty page of the one before it waiting for the disk
  # (untimed): otherwise whichever runs second pays for the first one's writeback.
  sync
  timed ours "$BIN" fetch --jobs "$JOBS" "$base/" "$out/ours"
  same_files "$dataset" "$out/ours"
  mkdir "$out/peer"
  sync
  timed peer bash -c 'cd "$1" && curl -sSf --parallel --parallel-max "$2" --create-dirs -K "$3"' \
    _ "$out/peer" "$JOBS" "$out/curl.config"
  same_files "$dataset" "$out/peer"
done
rm -rf "$out/ours" "$out/peer"
echo "root dataset of $(mbps "$bytes" 1) MB of data files (32) over loopback HTTP" \
  "(bench/serve), $JOBS transfers at once, median of $FETCH_RUNS alternating runs:"
header
row ours "odf-hash fetch (hashed as it streams, renamed when right)"
row peer "curl --parallel (a plain download, nothing checked)"
speed=$(ratio "$(cat "$out/peer.median")" "$(cat "$out/ours.median")")
printf '  speed: fetch %.2fx the plain download'"'"'s (goal >= 0.9x)\n' "$speed"
summary_row "fetch" "HTTP fetch $MIB MiB" "$(mbps "$bytes" 1)" \
  "$(mbps "$bytes" "$(cat "$out/peer.median")")" "$(mbps "$bytes" "$(cat "$out/ours.median")")" \
  "-" "-" ">= 0.9x"
kill -- "-${pids[0]}" 2>/dev/null || true
pids=()

# --- 2. a kamu node: fetch against kamu pull ---------------------------------------------
if [ ! -x "$KAMU" ]; then
  echo "kamu node: skipped (no kamu CLI at $KAMU)"
  exit 0
fi
ws="$out/node-ws"
mkdir -p "$ws"
(cd "$ws" && timeout 60 "$KAMU" init >/dev/null 2>&1)
ident=$("$PYTHON" - "$dataset" <<'PY'
import pathlib, sys
found = set()
for b in (pathlib.Path(sys.argv[1]) / "blocks").iterdir():
    d = b.read_bytes()
    i = d.find(b"\xed\x01")
    if i >= 0:
        found.add("f" + d[i:i + 34].hex())
print(sorted(found)[0])
PY
)
cp -r "$dataset" "$ws/.kamu/datasets/$ident"
rm -f "$ws/.kamu/datasets/$ident/.made-with"
mkdir -p "$ws/.kamu/datasets/$ident/info"
printf 'bench' >"$ws/.kamu/datasets/$ident/info/alias"
(cd "$ws" && timeout 60 "$KAMU" system api-server gql-query \
  "mutation { datasets { byId(datasetId: \"did:odf:$ident\") { setVisibility(visibility: { public: { anonymousAvailable: true } }) { message } } } }" \
  >/dev/null)
port=$(free_port)
(cd "$ws" && exec setsid "$KAMU" system api-server --address 127.0.0.1 --http-port "$port" \
  >"$out/node.log" 2>&1) &
pids+=($!)
node="http://127.0.0.1:$port"
wait_for "$node/bench/refs/head"
for ((i = 0; i < FETCH_RUNS; i++)); do
  rm -rf "$out/ours" "$out/pull-ws"
  timed node_ours "$BIN" fetch --jobs "$JOBS" "$node/bench" "$out/ours"
  same_files "$dataset" "$out/ours"
  rm -rf "$out/ours"
  timed node_smart "$BIN" fetch --jobs "$JOBS" "odf+$node/bench" "$out/ours"
  same_files "$dataset" "$out/ours"
  mkdir "$out/pull-ws"
  (cd "$out/pull-ws" && timeout 60 "$KAMU" init >/dev/null 2>&1)
  timed node_pull bash -c 'cd "$1" && timeout 3600 "$2" pull "$3" --as copy' _ \
    "$out/pull-ws" "$KAMU" "odf+$node/bench"
  same_files "$dataset" "$(ls -d "$out/pull-ws/.kamu/datasets/"*)"
done
echo "the same dataset served by a kamu node (kamu system api-server), median of" \
  "$FETCH_RUNS alternating runs:"
header
row node_ours "odf-hash fetch http://node/bench (Simple Transfer Protocol)"
row node_smart "odf-hash fetch odf+http://node/bench (Smart Transfer Protocol)"
row node_pull "kamu pull odf+http://node/bench (Smart Transfer Protocol)"
printf '  speed: fetch %.2fx (odf+http: %.2fx) kamu pull'"'"'s (goal > 1x)\n' \
  "$(ratio "$(cat "$out/node_pull.median")" "$(cat "$out/node_ours.median")")" \
  "$(ratio "$(cat "$out/node_pull.median")" "$(cat "$out/node_smart.median")")"
summary_row "fetch" "kamu node $MIB MiB" "$(mbps "$bytes" 1)" \
  "$(mbps "$bytes" "$(cat "$out/node_pull.median")")" \
  "$(mbps "$bytes" "$(cat "$out/node_ours.median")")" "-" "-" "> 1x kamu pull"
