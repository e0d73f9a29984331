#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# install.sh BUILD DESTDIR PREFIX LIBS_PRIVATE HEADER...: installs what
# make built under DESTDIR/PREFIX: the libraries (libtg.a, libtg.so.N with
# its link, libtgsim.a), pkg-config's tg.pc for PREFIX, the public
# headers given, tg-sim and tgctl.  make install runs it; TG_SOVER is the
# shared library's version (default 1).
set -euo pipefail
[ "$#" -ge 5 ] || { echo "usage: install.sh BUILD DESTDIR PREFIX LIBS_PRIVATE HEADER..." >&2; exit 2; }
build=$1 destdir=$2 prefix=$3 libs_private=$4
shift 4
sover=${TG_SOVER:-1}
root="$destdir$prefix"
src=$(cd "$(dirname "$0")/.." && pwd)

install -d "$root/lib/pkgconfig" "$root/include/tg" "$root/bin"
install -m 644 "$build/lib/libtg.a" "$build/lib/libtgsim.a" "$root/lib"
install -m 755 "$build/lib/libtg.so.$sover" "$root/lib"
ln -sf "libtg.so.$sover" "$root/lib/libtg.so"
install -m 644 "$@" "$root/include/tg"
install -m 755 "$build/bin/tg-sim" "$build/bin/tgctl" "$root/bin"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$sover.0|" -e "s|@LIBS_PRIVATE@|$libs_private|" \
	"$src/libtg/tg.pc.in" > "$root/lib/pkgconfig/tg.pc"
chmod 644 "$root/lib/pkgconfig/tg.pc"
