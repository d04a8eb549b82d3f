# odf-hash developer entry points. Every target first runs scripts/bootstrap.sh, which
# installs whatever is missing (Debian packages, the .venv with pyarrow, the Rust
# conformance tool's crates), so each target works on a fresh Debian 12 machine.
#
#   make example   hash / verify the bundled examples with build/odf-hash
#   make test      all tests: the documentation site, optimised build, the Python package, the
#                  ASan+UBSan build, then every fuzzer briefly
#   make docs      the documentation site (Sphinx + Doxygen) into build-docs/html, warnings fatal
#   make build     build/odf-hash and the test binaries (RelWithDebInfo, -Werror)
#   make bench     benchmarks against peers, side by side (BENCH_QUICK=1: a smoke run)
#   make fuzz      libFuzzer binaries (clang), each run FUZZ_SECONDS from its corpus
#   make format    clang-format the sources in place

JOBS ?= $(shell nproc)
CTEST_JOBS ?= 2
FUZZ_SECONDS ?= 30
# make test fuzzes every untrusted surface this long per fuzzer (seven fuzzers: under three
# minutes, plus the clang build).
FUZZ_TEST_SECONDS ?= 20
FUZZERS := $(patsubst tests/fuzz/%_fuzz.cpp,%_fuzzer,$(wildcard tests/fuzz/*_fuzz.cpp))

.PHONY: all bootstrap build build-asan build-fuzz docs test test-release test-python test-asan test-fuzz python example bench fuzz format format-check clean

all: build

bootstrap:
	@scripts/bootstrap.sh

build: bootstrap
	@cmake --preset release >/dev/null
	@cmake --build build -j $(JOBS)

build-asan: bootstrap
	@cmake --preset asan-ubsan >/dev/null
	@cmake --build build-asan -j $(JOBS)

test-release: build
	ctest --test-dir build --output-on-failure -j $(CTEST_JOBS)

# intercept_tls_get_addr=0: LeakSanitizer (GCC 12) can misread a dynamic-TLS block of a
# dlopen'ed library (the Arrow module) under glibc 2.36 and crash its own tracer at exit
# ("DTLS 6 at 0x16d5...", "Tracer caught signal 11": google/sanitizers#1322), failing a run
# that leaked nothing, deterministically for a given environment (it failed CI). Not scanning
# dynamic TLS can only report more (memory reachable from it alone), never hide a leak.
test-asan: build-asan
	ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir build-asan --output-on-failure -j $(CTEST_JOBS) -LE no_asan

build-fuzz: bootstrap
	@cmake --preset fuzz >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target $(FUZZERS)

test-fuzz: build-fuzz
	scripts/run-fuzzers.sh build-fuzz $(FUZZ_TEST_SECONDS)

# The Python package (python/): a wheel built with the venv's scikit-build-core and nanobind
# into build-python/ (incremental; the wheel in build-python/dist), that wheel installed into
# .venv, then its pytest suite: what is tested is the wheel a user would install.
# The wheel pip builds (build-python/raw) is then made a manylinux one (build-python/dist:
# libcrypto vendored, scripts/repair-wheel.sh says why and what is left out), which is what
# .venv gets and test_wheel.py installs into a fresh venv holding only pyarrow.
python: bootstrap
	rm -rf build-python/raw
	.venv/bin/pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps \
	  --config-settings=build-dir=$(CURDIR)/build-python -w build-python/raw ./python
	scripts/repair-wheel.sh build-python/raw/odf_hash-*.whl build-python/dist
	.venv/bin/pip install -q --disable-pip-version-check --no-deps --force-reinstall \
	  build-python/dist/odf_hash-*.whl

test-python: python
	ODF_HASH_WHEEL="$(wildcard $(CURDIR)/build-python/dist/odf_hash-*.whl)" \
	  .venv/bin/python -m pytest python/tests -q -p no:cacheprovider

# The documentation site (docs/): Doxygen reads the public C header, and the public C++ headers
# (docs/Doxyfile.cpp), into XML, Sphinx builds the pages (Markdown through myst-parser, the
# Python reference from the odf_hash installed in .venv, the C and C++ references through
# Breathe) with -W: a broken cross-reference, link anchor or docstring
# fails it. No network: no intersphinx, no linkcheck (tests/cli/test_docs.py checks links
# offline). The Python reference needs the wheel installed: on a fresh machine `make python`
# runs first.
docs: bootstrap
	@.venv/bin/python -c "import odf_hash" 2>/dev/null || $(MAKE) python
	@rm -rf build-docs/doxygen build-docs/doxygen-cpp && mkdir -p build-docs/doxygen build-docs/doxygen-cpp
	doxygen docs/Doxyfile
	doxygen docs/Doxyfile.cpp
	.venv/bin/sphinx-build -W --keep-going -q -b html docs build-docs/html

# docs first: cheap, and fails early.
test: format-check docs test-release test-python test-asan test-fuzz

example: build
	@scripts/example.sh

bench: build python
	@bench/run.sh

fuzz: build-fuzz
	@scripts/run-fuzzers.sh build-fuzz $(FUZZ_SECONDS)

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format -i

format-check: bootstrap
	@git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run --Werror

clean:
	rm -rf build build-asan build-dev build-fuzz build-python build-docs
