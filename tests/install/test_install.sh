#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Test: the tree make install makes (scripts/install.sh) serves a program
# outside the source tree: the public headers and nothing internal,
# pkg-config's flags, libtg.so exporting exactly the functions the headers
# declare, and the program run against the installed tg-sim.
set -euo pipefail
src=@SRC@
build=@BUILD@
tmp=$(mktemp -d)
pid=
cleanup() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "test_install: $*" >&2; exit 1; }

command -v pkg-config >/dev/null || { echo "test_install: no pkg-config (scripts/setup.sh installs it)"; exit 77; }
root="$tmp/root"
prefix=/usr/local
"$src/scripts/install.sh" "$build" "$root" "$prefix" "-lpci -pthread" @HDRS@

# the public headers, nothing internal
want=$(for h in @HDRS@; do basename "$h"; done | sort | tr '\n' ' ')
have=$(ls "$root$prefix/include/tg" | sort | tr '\n' ' ')
[ "$want" = "$have" ] || fail "installed headers '$have', want '$want'"

# exactly the declared functions, under version TG_1
nm -D --defined-only "$root$prefix/lib/libtg.so.1" | awk '$3 != "TG_1" {print $3}' |
	sed 's/@.*//' | sort > "$tmp/exported"
python3 "$src/scripts/gen_libtg_map.py" --list "$root$prefix/include/tg/tg.h" > "$tmp/declared"
diff -u "$tmp/declared" "$tmp/exported" > "$tmp/diff" || fail "libtg.so exports differ from tg.h: $(cat "$tmp/diff")"

# built outside the tree with pkg-config's flags, against the shared library
export PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR="$root$prefix/lib/pkgconfig"
mkdir "$tmp/prog"
cp "$src/tests/install/tg_hello.c" "$tmp/prog/"
cflags=$(echo $(pkg-config --cflags tg))
libs=$(echo $(pkg-config --libs tg))
[ "$cflags" = "-I$root$prefix/include" ] || fail "pkg-config --cflags tg: '$cflags'"
( cd "$tmp/prog" && cc -std=c11 -Wall -Wextra -Werror $cflags tg_hello.c -o tg_hello $libs ) ||
	fail "the program did not build with: cc $cflags tg_hello.c $libs"
# (grep reads all its input: grep -q could end the pipe early, and with
# pipefail the writer's SIGPIPE would fail the check)
readelf -d "$tmp/prog/tg_hello" | grep 'NEEDED.*libtg\.so\.1' > /dev/null ||
	fail "not linked to libtg.so.1"

# run against the installed simulator
name="inst-$$"
"$root$prefix/bin/tg-sim" --nodes 2 --name "$name" > "$tmp/sim.log" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
	grep -q '^tg-sim: ready' "$tmp/sim.log" && break
	kill -0 "$pid" 2>/dev/null || fail "tg-sim exited: $(cat "$tmp/sim.log")"
	sleep 0.1
done
grep -q '^tg-sim: ready' "$tmp/sim.log" || fail "tg-sim not ready"
LD_LIBRARY_PATH="$root$prefix/lib" timeout 120 "$tmp/prog/tg_hello" "$name" ||
	fail "tg_hello failed"
LD_LIBRARY_PATH="$root$prefix/lib" ldd "$tmp/prog/tg_hello" | grep "$root$prefix/lib/libtg.so.1" > /dev/null ||
	fail "tg_hello did not load the installed libtg.so.1"
echo "test_install: pass"
