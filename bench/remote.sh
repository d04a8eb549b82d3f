#!/usr/bin/env bash
# Remote verification: `odf-hash verify s3://...` (objects streamed and hashed as they arrive)
# next to the download-then-hash path (every object copied to a local temporary folder by
# Arrow's S3 file system with threads, pyarrow.fs.copy_files, then `odf-hash verify` on the
# copy), on a root dataset of about 1 GiB of data files (bench/make_remote_dataset.py: 32
# files of random bytes) in moto's S3 server on 127.0.0.1, started and stopped here.
# Wall time, CPU time and peak RSS (/usr/bin/time; the peer's RSS is its largest process),
# alternating runs, medians. Both must report the dataset VALID.
#
# Knobs (environment): see bench/lib.sh; BENCH_REMOTE_MIB (default 1024, quick 128),
# BENCH_REMOTE_RUNS (default 3, quick 1), BENCH_REMOTE_JOBS (odf-hash --jobs and the peer's
# verify --jobs; default: each command's own default).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  MIB="${BENCH_REMOTE_MIB:-128}"
  REMOTE_RUNS="${BENCH_REMOTE_RUNS:-1}"
else
  MIB="${BENCH_REMOTE_MIB:-1024}"
  REMOTE_RUNS="${BENCH_REMOTE_RUNS:-3}"
fi
[ -x /usr/bin/time ] || { echo "remote.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
MOTO="$(dirname "$PYTHON")/moto_server"
[ -x "$MOTO" ] || { echo "remote.sh: $MOTO missing (scripts/bootstrap.sh installs moto[server])" >&2; exit 2; }

dataset="$DATA/remote-${MIB}MiB"
"$PYTHON" bench/make_remote_dataset.py "$dataset" --mib "$MIB" --files 32
bytes=$(du -sb "$dataset/data" | cut -f1)

out=$(mktemp -d)
moto_pid=""
cleanup() {
  [ -n "$moto_pid" ] && kill "$moto_pid" 2>/dev/null && wait "$moto_pid" 2>/dev/null
  rm -rf "$out"
}
trap cleanup EXIT

# Credentials and settings that keep the AWS SDK and boto3 on this machine.
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_DEFAULT_REGION=us-east-1
export AWS_EC2_METADATA_DISABLED=true AWS_CONFIG_FILE=/nonexistent AWS_SHARED_CREDENTIALS_FILE=/nonexistent
port=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
endpoint="http://127.0.0.1:$port"
"$MOTO" -H 127.0.0.1 -p "$port" >"$out/moto.log" 2>&1 &
moto_pid=$!
"$PYTHON" - "$endpoint" "$dataset" <<'PY'
import pathlib, sys, time, boto3
endpoint, root = sys.argv[1], pathlib.Path(sys.argv[2])
client = boto3.client("s3", endpoint_url=endpoint)
for _ in range(100):
    try:
        client.list_buckets()
        break
    except Exception:
        time.sleep(0.1)
client.create_bucket(Bucket="bench")
for p in sorted(root.rglob("*")):
    if p.is_file() and not p.name.startswith("."):
        client.put_object(Bucket="bench", Key=f"ds/{p.relative_to(root).as_posix()}",
                          Body=p.read_bytes())
PY
url="s3://bench/ds"
jobs=()
[ -n "${BENCH_REMOTE_JOBS:-}" ] && jobs=(--jobs "$BENCH_REMOTE_JOBS")

cat >"$out/download.py" <<'PY'
import sys
import pyarrow.fs as fs
endpoint, dest = sys.argv[1], sys.argv[2]
s3 = fs.S3FileSystem(endpoint_override=endpoint.split("://")[1], scheme="http",
                     region="us-east-1")
fs.copy_files("bench/ds", dest, source_filesystem=s3, use_threads=True)
PY

# timed NAME CMD...: runs CMD under /usr/bin/time; "wall rss_kb user_s sys_s" appended to
# $out/NAME.times, output to $out/NAME.out. A failing command fails the script.
timed() {
  local name="$1"
  shift
  /usr/bin/time -o "$out/time" -f '%e %M %U %S' "$@" >"$out/$name.out"
  cat "$out/time" >>"$out/$name.times"
}
for ((i = 0; i < REMOTE_RUNS; i++)); do
  timed ours "$BIN" verify "${jobs[@]}" --endpoint-url "$endpoint" "$url"
  rm -rf "$out/copy"
  timed peer bash -c '"$1" "$2" "$3" "$4" && shift 4 && "$@"' _ "$PYTHON" "$out/download.py" \
    "$endpoint" "$out/copy" "$BIN" verify "${jobs[@]}" "$out/copy"
  rm -rf "$out/copy"
done
grep -q "result       VALID" "$out/ours.out" || { echo "remote.sh: odf-hash did not find it VALID" >&2; cat "$out/ours.out" >&2; exit 1; }
grep -q "result       VALID" "$out/peer.out" || { echo "remote.sh: the peer did not find it VALID" >&2; exit 1; }

ours_t=$(median $(cut -d' ' -f1 "$out/ours.times"))
peer_t=$(median $(cut -d' ' -f1 "$out/peer.times"))
ours_m=$(median $(cut -d' ' -f2 "$out/ours.times"))
peer_m=$(median $(cut -d' ' -f2 "$out/peer.times"))
ours_c=$(median $(awk '{ print $3 + $4 }' "$out/ours.times"))
peer_c=$(median $(awk '{ print $3 + $4 }' "$out/peer.times"))
ours_mbps=$(mbps "$bytes" "$ours_t")
peer_mbps=$(mbps "$bytes" "$peer_t")
sha3=$(sha3_rate)

echo "root dataset of $(mbps "$bytes" 1) MB of data files (32) in moto S3 on 127.0.0.1, median of $REMOTE_RUNS alternating runs:"
printf '  %-52s %8s %8s %10s %13s\n' "command" "wall s" "cpu s" "MB/s" "peak RSS MiB"
printf '  %-52s %8.2f %8.2f %10.1f %13.1f\n' "odf-hash verify s3://... (streamed)" "$ours_t" \
  "$ours_c" "$ours_mbps" "$(ratio "$ours_m" 1024)"
printf '  %-52s %8.2f %8.2f %10.1f %13.1f\n' "download (pyarrow copy_files) + odf-hash verify" \
  "$peer_t" "$peer_c" "$peer_mbps" "$(ratio "$peer_m" 1024)"
printf '  speed: %.2fx the download-then-hash wall clock, %.2fx its CPU time (goal >= 1.5x)\n' \
  "$(ratio "$peer_t" "$ours_t")" "$(ratio "$peer_c" "$ours_c")"
printf '  (CPU time excludes the moto server, which both paths load alike)\n'
summary_row "remote" "S3 verify $MIB MiB" "$(mbps "$bytes" 1)" "$peer_mbps" "$ours_mbps" \
  "$(ratio "$peer_c" "$ours_c")" "$(ratio "$ours_mbps" "$sha3")" ">= 1.5x"
summary_note "$(printf 'remote peak RSS: odf-hash verify s3:// %.1f MiB, download + verify %.1f MiB' \
  "$(ratio "$ours_m" 1024)" "$(ratio "$peer_m" 1024)")"
