#!/usr/bin/env bash
# Builds Kubo (the IPFS reference node) once into a cache outside the repository, for the
# IPFS gateway tests (tests/cli/test_ipfs.py). Prints the path of the `ipfs` binary.
#
# Why a build and not a download: the only registry with Kubo here is the Go module proxy,
# so the binary is compiled from the module (minutes on 2 cores, then cached).
#
#   ODF_KUBO_VERSION  Kubo module version (default v0.43.1)
#   ODF_KUBO_CACHE    cache root (default ~/.cache/odf-hash-kubo); the binary lands in
#                     $ODF_KUBO_CACHE/<version>/ipfs, GOPATH and GOMODCACHE beside it.
# Exit 0 with the path on stdout; exit 3 when Go is absent (callers skip; with --optional,
# exit 0 and print nothing: a ctest fixture that must not fail without Go); else the build's.
# The Go caches of the build (about 1.7 GB) are removed once the binary is there.
set -euo pipefail

optional=0
[[ "${1:-}" == "--optional" ]] && optional=1

version="${ODF_KUBO_VERSION:-v0.43.1}"
cache="${ODF_KUBO_CACHE:-${HOME}/.cache/odf-hash-kubo}"
dir="${cache}/${version}"
bin="${dir}/ipfs"

if [[ -x "${bin}" ]]; then
    echo "${bin}"
    exit 0
fi
if ! command -v go >/dev/null 2>&1; then
    echo "build-kubo: Go is not installed: cannot build Kubo ${version}" >&2
    (( optional )) && exit 0
    exit 3
fi

mkdir -p "${dir}"
# One build at a time: parallel test runs wait for the first one instead of racing it.
exec 9>"${dir}/.lock"
flock 9
if [[ -x "${bin}" ]]; then
    echo "${bin}"
    exit 0
fi

echo "build-kubo: building github.com/ipfs/kubo/cmd/ipfs@${version} into ${dir} (minutes)" >&2
start=$(date +%s)
# GOTOOLCHAIN=local: never fetch a Go toolchain; the module proxy serves modules only.
# GOFLAGS is replaced whole so that the caller's -mod setting cannot change the build.
goenv=(env GOPATH="${dir}/gopath" GOMODCACHE="${dir}/gomodcache" GOCACHE="${dir}/gocache"
       GOTOOLCHAIN=local GOFLAGS=-buildvcs=false CGO_ENABLED=0)
# Kubo's go.mod replaces go-libp2p with a fork, which `go install pkg@version` refuses (a
# replace only applies in the main module). So the module's source is built as the main
# module, from a writable copy of what the proxy served (go.sum pins every dependency).
src_dir=$("${goenv[@]}" go mod download -json "github.com/ipfs/kubo@${version}" |
          sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[[ -n "${src_dir}" && -f "${src_dir}/go.mod" ]] || {
    echo "build-kubo: the module proxy did not give github.com/ipfs/kubo@${version}" >&2
    exit 1
}
rm -rf "${dir}/src"
cp -r "${src_dir}" "${dir}/src"
chmod -R u+w "${dir}/src"
# Kubo v0.43.1 replaces go-libp2p with an unreleased fork (for a newer quic-go) that the
# module proxy does not serve; the released go-libp2p ${ODF_KUBO_LIBP2P} stands in for it.
# The gateway, the only part the tests use, does not depend on that transport change.
libp2p="${ODF_KUBO_LIBP2P:-v0.52.0}"
(cd "${dir}/src" &&
    "${goenv[@]}" go mod edit -dropreplace=github.com/libp2p/go-libp2p \
        -require="github.com/libp2p/go-libp2p@${libp2p}" &&
    "${goenv[@]}" GOFLAGS="-buildvcs=false -mod=mod" go mod tidy >&2)
(cd "${dir}/src" && "${goenv[@]}" GOFLAGS="-buildvcs=false -mod=mod" nice -n 10 go build -trimpath -o "${bin}.tmp" ./cmd/ipfs >&2)
mv "${bin}.tmp" "${bin}"
rm -rf "${dir}/src"
"${goenv[@]}" go clean -modcache >/dev/null 2>&1 || true
rm -rf "${dir}/gocache" "${dir}/gomodcache" "${dir}/gopath"
echo "build-kubo: done in $(( $(date +%s) - start )) s" >&2
echo "${bin}"
