# Thin wrapper over CMake presets. Every target installs what is missing first.
JOBS ?= $(shell nproc)
.PHONY: deps test-deps build install windows windows-zip run test sanitize bench clean

deps:
	@scripts/install-deps

# What the tests, the Windows build and the benchmarks need besides.
test-deps:
	@scripts/install-deps test

build: deps
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS)

# loadcell and a `sysbench` link to it (sysbench mode) in $(PREFIX)/bin;
# DESTDIR stages the tree elsewhere (make install DESTDIR=/tmp/stage).
PREFIX ?= /usr/local
install: build
	DESTDIR="$(DESTDIR)" cmake --install build/release --prefix "$(PREFIX)"

# loadcell.exe for Windows (mingw-w64 cross build), with its unit tests.
windows: test-deps
	cmake --preset windows >/dev/null
	cmake --build --preset windows -j $(JOBS)

# The Windows zip: loadcell.exe, sysbench.exe (a copy: sysbench mode) and
# LICENSE, in build/windows/loadcell-VERSION-windows-x86_64.zip.
windows-zip: windows
	cmake --build --preset windows --target package

run: build
	build/release/loadcell suite

# Every test of the release build, the build with every optional part OFF,
# and the Windows build under Wine (scripts/test-all builds the last two
# beside the test runs).
test: test-deps build
	JOBS=$(JOBS) scripts/test-all

sanitize: deps
	cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS) --target unit_all loadcell
	cd build/asan && ctest -L unit --output-on-failure -j $(JOBS)
	cmake --preset tsan >/dev/null
	cmake --build --preset tsan -j $(JOBS) --target unit_runner unit_stats unit_db loadcell
	cd build/tsan && TSAN_OPTIONS=halt_on_error=1 ctest -L "unit_(runner|stats|db)" --output-on-failure -j $(JOBS)

bench: test-deps build
	bench/compare-sysbench

clean:
	rm -rf build
