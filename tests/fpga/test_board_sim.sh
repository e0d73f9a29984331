#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Test of tg-board-sim: starts the two simulated boards, talks to their
# bridges through the Unix sockets with fpga/tools/tg_bridge.py (NIC and
# node ids, host-memory write and read, a refused address, a remote write
# from node 0 into node 1's memory across the cable, the same with the
# link layer on at both), stops the simulator and checks that it exits
# cleanly. Exit 0 pass, 1 fail, 77 skip.
set -u
# paths filled in by the build ($(BUILD)/tests/fpga/test_board_sim); run
# from the source tree, the script finds them itself
BIN=${TG_BOARD_SIM:-@TG_BOARD_SIM@}
SRC=${TG_SRC_DIR:-@TG_SRC_DIR@}
case $SRC in @*) SRC=$(cd "$(dirname "$0")/../.." && pwd) ;; esac
case $BIN in @*)
	BIN=${BUILD:-build}/bin/tg-board-sim
	case $BIN in /*) ;; *) BIN=$SRC/$BIN ;; esac ;;
esac
PY=${PYTHON:-python3}
TOOL="$SRC/fpga/tools/tg_bridge.py"

[ -x "$BIN" ] || { echo "no tg-board-sim at $BIN"; exit 77; }
command -v "$PY" > /dev/null || { echo "no $PY"; exit 77; }

d=$(mktemp -d)
pid=
cleanup() {
	if [ -n "$pid" ] && kill -0 "$pid" 2> /dev/null; then
		kill -KILL "$pid" 2> /dev/null
		wait "$pid" 2> /dev/null
	fi
	rm -rf "$d"
}
trap cleanup EXIT

fail=0
bad() { echo "FAIL: $*"; fail=1; }
# hex value of a TG_ constant of include/tg/tg_hw.h
def() { printf '0x%x' "$(awk -v n="TG_$1" '$2 == n {print $3}' "$SRC/include/tg/tg_hw.h" | sed 's/ULL$//')"; }
# bridge address of the control page's register TG_CSR_REG_$1
csr() { printf '0x%x' $(( $(def CTRL_CSR_BASE) + $(def "CSR_REG_$1") )); }
# expect "OUTPUT" tg_bridge.py-args...: the tool's answer must be OUTPUT
expect() {
	local want=$1 got
	shift
	got=$("$PY" "$TOOL" "$@" 2>&1)
	[ "$got" = "$want" ] || bad "tg_bridge.py $*: '$got', expected '$want'"
}

# bad arguments are refused with exit status 2
"$BIN" > /dev/null 2>&1; [ $? -eq 2 ] || bad "no --dir accepted"
"$BIN" --dir "$d" --cycles x > /dev/null 2>&1; [ $? -eq 2 ] || bad "--cycles x accepted"
"$BIN" --dir "$d" --nosuch > /dev/null 2>&1; [ $? -eq 2 ] || bad "unknown option accepted"
"$BIN" --dir "$d" --lose 1 > /dev/null 2>&1; [ $? -eq 2 ] || bad "--lose 1 accepted"
"$BIN" --dir "$d" --lose -3 > /dev/null 2>&1; [ $? -eq 2 ] || bad "--lose -3 accepted"
"$BIN" --help | grep -q -- "--dir DIR" || bad "--help lacks --dir"

# a stale socket file is replaced
mkdir -p "$d/s"
"$PY" -c 'import socket, sys; socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).bind(sys.argv[1])' "$d/s/node0.sock"

"$BIN" --dir "$d/s" > "$d/out" 2> "$d/err" &
pid=$!
for _ in $(seq 1 300); do
	grep -q '^tg-board-sim: ready' "$d/out" && break
	kill -0 "$pid" 2> /dev/null || break
	sleep 0.1
done
if ! grep -qx "tg-board-sim: ready, 2 nodes, sockets in $d/s" "$d/out"; then
	echo "FAIL: tg-board-sim not ready after 30 s:"
	cat "$d/out" "$d/err"
	exit 1
fi

n0=(unix:"$d/s/node0.sock")
n1=(unix:"$d/s/node1.sock" --node 1)
id=$(printf '0x%08x' "$(def ID_MAGIC)")
out=$("$PY" "$TOOL" "${n0[@]}" id 2>&1)
case $out in "OK ${id}"????????) ;; *) bad "node 0 id: '$out', expected OK ${id}..." ;; esac
out=$("$PY" "$TOOL" "${n1[@]}" id 2>&1)
case $out in "OK ${id}"????????) ;; *) bad "node 1 id: '$out', expected OK ${id}..." ;; esac
expect "OK 0x0000000000000000" "${n0[@]}" bar-read "$(csr NODE_ID)"
expect "OK 0x0000000000000001" "${n1[@]}" bar-read "$(csr NODE_ID)"

# node 0's host memory, written and read back; an address past its 16 KiB refused
expect "OK 0x0000000000000000" "${n0[@]}" mem-write 0x120 0x0123456789abcdef
expect "OK 0x0000000000000000" "${n0[@]}" mem-write 0x128 0xffffffffffffffff 0x0f
expect "OK 0x0123456789abcdef" "${n0[@]}" mem-read 0x120
expect "OK 0x00000000ffffffff" "${n0[@]}" mem-read 0x128
expect "RANGE 0x0000000000000000" "${n0[@]}" mem-read 0x4000
# the wrong bridge MAC on a socket gets no answer
"$PY" "$TOOL" "unix:$d/s/node1.sock" id > /dev/null 2>&1 && bad "node 1 answered node 0's MAC"

# across the cable: node 1 opens its memory, node 0 writes into it and fences
win() { printf '0x%x' $(( ($(def "WIN_$1") << $(def BAR_WIN_SHIFT)) | (1 << $(def BAR_NODE_SHIFT)) | $2 )); }
expect "OK 0x0000000000000000" "${n1[@]}" bar-write "$(csr MEM_SIZE)" 0x4000
expect "OK 0x0000000000000000" "${n0[@]}" bar-write "$(win REMOTE 0x200)" 0x5a5a00005a5a0000
expect "OK 0x0000000000000000" "${n0[@]}" bar-read "$(win SYNC 0)"
expect "OK 0x5a5a00005a5a0000" "${n1[@]}" mem-read 0x200
expect "OK 0x5a5a00005a5a0000" "${n0[@]}" bar-read "$(win REMOTE 0x200)"
# a burst of three words: one request, one remote write
expect "OK 0x0000000000000000" "${n0[@]}" bar-burst "$(win REMOTE 0x240)" 0x11 0x22 0x33
expect "OK 0x0000000000000000" "${n0[@]}" bar-read "$(win SYNC 0)"
expect "OK 0x0000000000000011" "${n1[@]}" mem-read 0x240
expect "OK 0x0000000000000022" "${n1[@]}" mem-read 0x248
expect "OK 0x0000000000000033" "${n1[@]}" mem-read 0x250

# the link layer the board builds in: on at both nodes, then a remote
# write sequenced across the cable and acknowledged by node 1 (by a
# standalone ACK: each tg_bridge.py call takes far longer than the
# 32-cycle ack delay, so the write's ack does not wait for the fence's
# answer to carry it), and nothing resent by node 0
out=$("$PY" "$TOOL" "${n0[@]}" bar-read "$(csr CONFIG)" 2>&1)
case $out in "OK 0x"*) (( ${out#OK } & $(def CONFIG_LINK) )) || bad "CONFIG $out: no link layer built in" ;;
	*) bad "CONFIG read: '$out'" ;; esac
lcfg=$(( $(def LINK_CFG_RESET) | $(def LINK_CFG_ENABLE) ))
expect "OK 0x0000000000000000" "${n0[@]}" bar-write "$(csr LINK_CFG)" $lcfg
expect "OK 0x0000000000000000" "${n1[@]}" bar-write "$(csr LINK_CFG)" $lcfg
lon=$(printf 'OK 0x%016x' $(( lcfg | $(def LINK_CFG_ON) )))
expect "$lon" "${n0[@]}" bar-read "$(csr LINK_CFG)"
expect "$lon" "${n1[@]}" bar-read "$(csr LINK_CFG)"
expect "OK 0x0000000000000000" "${n0[@]}" bar-write "$(win REMOTE 0x300)" 0x0123456789abcdef
expect "OK 0x0000000000000000" "${n0[@]}" bar-read "$(win SYNC 0)"
expect "OK 0x0123456789abcdef" "${n1[@]}" mem-read 0x300
out=$("$PY" "$TOOL" "${n1[@]}" bar-read "$(csr LINK_ACKS_SENT)" 2>&1)
case $out in "OK 0x"*) (( ${out#OK } > 0 )) || bad "node 1 sent no link ACK" ;;
	*) bad "LINK_ACKS_SENT read: '$out'" ;; esac
expect "OK 0x0000000000000000" "${n0[@]}" bar-read "$(csr LINK_RETX)"

kill -TERM "$pid"
wait "$pid"
rc=$?
pid=
[ "$rc" -eq 0 ] || bad "tg-board-sim exited with $rc after SIGTERM"
[ -e "$d/s/node0.sock" ] || [ -e "$d/s/node1.sock" ] && bad "sockets left behind"
grep -q '^tg-board-sim: node 0: frames in' "$d/err" || bad "no counters on exit"
grep -q 'bad FCS [1-9]' "$d/err" && bad "frames with a bad FCS"
grep -q 'no sender [1-9]\|send failed [1-9]' "$d/err" && bad "answers dropped"
[ $fail -eq 0 ] || { echo "--- tg-board-sim stderr:"; cat "$d/err"; }
exit $fail
