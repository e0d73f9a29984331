/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: the Wireshark dissector's tables match the wire format's source, the tshark options its header and docs/simulator.md give are the ones used here, and tshark decodes a simulator capture as the frames were sent. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tg_test.h"

#ifndef TG_SRC_DIR
#define TG_SRC_DIR "."
#endif

#define MAXF   256u
#define NCOL   17u   /* frame number, 13 header fields, payload, info, FCS status */
#define NHDR   13u

struct frame {
	struct tg_frame_hdr h;
	uint8_t payload[TG_MAX_PAYLOAD];
	unsigned plen;
};

static struct frame fr[MAXF];
static unsigned nfr;

static const char *const hdr_fields[] = {
	"ver", "op", "flags", "status", "ctx", "len", "off", "cnt", "seq", "ack", "tag",
	"addr", "key",
};

static uint64_t hdr_value(const struct tg_frame_hdr *h, unsigned i)
{
	const uint64_t v[] = { h->ver, h->op, h->flags, h->status, h->ctx, h->len, h->off,
			       h->cnt, h->seq, h->ack, h->tag, h->addr, h->key };

	return v[i];
}

/* Frames of the capture, decoded by the project's own decoder. */
static void read_capture(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t hdr[24], rec[16], data[2048];

	REQUIRE(f && fread(hdr, 1, sizeof(hdr), f) == sizeof(hdr), "capture %s", path);
	while (nfr < MAXF && fread(rec, 1, sizeof(rec), f) == sizeof(rec)) {
		unsigned len = rec[8] | rec[9] << 8 | rec[10] << 16 | (unsigned)rec[11] << 24;
		struct frame *x = &fr[nfr++];

		REQUIRE(len <= sizeof(data) && fread(data, 1, len, f) == len, "record");
		REQUIRE(tg_frame_decode(data, len, &x->h) == 0, "frame %u does not decode", nfr);
		x->plen = tg_frame_payload_bytes(x->h.op, x->h.len);
		REQUIRE(x->plen <= TG_MAX_PAYLOAD && TG_PAYLOAD_OFF + x->plen + 4 <= len, "payload");
		memcpy(x->payload, data + TG_PAYLOAD_OFF, x->plen);
	}
	fclose(f);
}

/* Traffic of every kind from node 0 to node 1. */
static void make_capture(const char *path, uint64_t *base, uint64_t *qpa)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *a, *b;
	struct tg_mr *mr;
	struct tg_queue *q;
	uint8_t buf[64];
	uint64_t old;

	t_config(&cfg, 2);
	cfg.pcap_path = path;
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	a = t_open(sim, 0, 0);
	b = t_open(sim, 1, 0);
	mr = tg_mr_alloc(b, 4096, 0);
	q = tg_queue_open(b, 12, 8);
	REQUIRE(mr && q, "mr, queue");
	*base = tg_mr_paddr(mr);
	*qpa = tg_queue_paddr(q);
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = t_pat(3, i);
	CHECK_RC(tg_write(a, 1, *base + 0x40, buf, 64), 0);
	CHECK_RC(tg_write(a, 1, *base + 0x83, buf, 5), 0);
	CHECK_RC(tg_read(a, 1, *base + 0x100, buf, 16), 0);
	CHECK_RC(tg_faa(a, 1, *base + 0x200, 7, &old), 0);
	CHECK_RC(tg_cas(a, 1, *base + 0x208, 0, 9, &old), 0);
	CHECK_RC(tg_enq(a, 1, *qpa, 0x1234), 0);
	CHECK_RC(tg_fence(a, 1), 0);
	/* out of the target's memory: a response with status RANGE */
	CHECK(tg_read(a, 1, 0xfff00000u, buf, 8) != 0, "read beyond memory succeeded");
	tg_queue_close(q);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
}

/* Split a tab-separated line into at most n columns (in place). */
static unsigned split(char *line, char **col, unsigned n)
{
	unsigned k = 0;

	line[strcspn(line, "\r\n")] = 0;
	while (k < n) {
		col[k++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = 0;
	}
	return k;
}

/* Hex bytes as tshark prints them ("0a1b..." or "0a:1b:..."); returns the count. */
static unsigned parse_hex(const char *s, uint8_t *out, unsigned max)
{
	unsigned n = 0;

	while (*s && n < max) {
		unsigned v;

		if (*s == ':') {
			s++;
			continue;
		}
		if (sscanf(s, "%2x", &v) != 1)
			break;
		out[n++] = (uint8_t)v;
		s += 2;
	}
	return n;
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[256], cmd[2048], line[4096], *col[NCOL];
	uint64_t base, qpa;
	unsigned rows = 0, seen_ops = 0, range = 0;
	FILE *p;
	int fd, st;

	/* the dissector's tables are those of scripts/gen_hw_defs.py */
	snprintf(cmd, sizeof(cmd), "python3 '%s/tools/wireshark/gen_dissector.py' --check",
		 TG_SRC_DIR);
	st = system(cmd);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the dissector's tables are stale");
	/* the options the dissector's header and docs/simulator.md give are
	 * the ones this test runs tshark with */
	for (unsigned i = 0; i < 2; i++) {
		static const char *const doc[2] = { "tools/wireshark/telegraphos.lua",
						    "docs/simulator.md" };

		snprintf(cmd, sizeof(cmd),
			 "grep -q -e '-o eth.fcs:always' '%s/%s' && "
			 "grep -q -e '-o eth.check_fcs:TRUE' '%s/%s' && "
			 "! grep -q -e 'assume_fcs' '%s/%s'",
			 TG_SRC_DIR, doc[i], TG_SRC_DIR, doc[i], TG_SRC_DIR, doc[i]);
		st = system(cmd);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "%s does not give the tshark options this test uses", doc[i]);
	}
	if (system("command -v tshark >/dev/null 2>&1") != 0) {
		printf("tshark is not installed: dissector not run\n");
		return t_failed ? T_FAIL : T_SKIP;
	}

	snprintf(path, sizeof(path), "%s/tg-test-ws-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	REQUIRE(fd >= 0, "mkstemp");
	close(fd);
	make_capture(path, &base, &qpa);
	read_capture(path);
	REQUIRE(nfr > 10, "%u frames captured", nfr);

	snprintf(cmd, sizeof(cmd),
		 "tshark -n -X 'lua_script:%s/tools/wireshark/telegraphos.lua' "
		 "-o eth.fcs:always -o eth.check_fcs:TRUE -r '%s' -T fields -E separator=/t -E occurrence=f "
		 "-e frame.number -e telegraphos.ver -e telegraphos.op -e telegraphos.flags "
		 "-e telegraphos.status -e telegraphos.ctx -e telegraphos.len -e telegraphos.off "
		 "-e telegraphos.cnt -e telegraphos.seq -e telegraphos.ack -e telegraphos.tag "
		 "-e telegraphos.addr -e telegraphos.key "
		 "-e telegraphos.payload -e _ws.col.Info -e eth.fcs.status 2>'%s.err'", TG_SRC_DIR,
		 path, path);
	p = popen(cmd, "r");
	REQUIRE(p, "popen");
	while (fgets(line, sizeof(line), p)) {
		unsigned k, n;
		const struct frame *x;
		uint8_t pl[TG_MAX_PAYLOAD];
		char want[64];

		if (rows < 3)
			printf("tshark: %s", line);
		k = split(line, col, NCOL);
		if (k != NCOL) {
			CHECK(0, "tshark said: %s", col[0]);
			continue;
		}
		n = (unsigned)strtoul(col[0], NULL, 10);
		if (n < 1 || n > nfr) {
			CHECK(0, "tshark frame number %s", col[0]);
			continue;
		}
		x = &fr[n - 1];
		rows++;
		for (unsigned i = 0; i < NHDR; i++) {
			uint64_t v = strtoull(col[1 + i], NULL, 0);

			CHECK(*col[1 + i] && v == hdr_value(&x->h, i), "frame %u %s: tshark '%s', "
			      "sent %#" PRIx64, n, hdr_fields[i], col[1 + i], hdr_value(&x->h, i));
		}
		CHECK(parse_hex(col[14], pl, sizeof(pl)) == x->plen &&
		      memcmp(pl, x->payload, x->plen) == 0, "frame %u payload: '%s' (%u bytes sent)",
		      n, col[14], x->plen);
		/* the names of opcodes and statuses */
		switch (x->h.op) {
		case TG_OP_WRITE: snprintf(want, sizeof(want), "WRITE "); break;
		case TG_OP_READ_REQ: snprintf(want, sizeof(want), "READ_REQ "); break;
		case TG_OP_READ_RESP: snprintf(want, sizeof(want), "READ_RESP "); break;
		case TG_OP_FAA: snprintf(want, sizeof(want), "FAA "); break;
		case TG_OP_CAS: snprintf(want, sizeof(want), "CAS "); break;
		case TG_OP_ATOMIC_RESP: snprintf(want, sizeof(want), "ATOMIC_RESP "); break;
		case TG_OP_REQ: snprintf(want, sizeof(want), "REQ "); break;
		case TG_OP_REQ_RESP: snprintf(want, sizeof(want), "REQ_RESP "); break;
		default: snprintf(want, sizeof(want), " -> "); break;
		}
		CHECK(strstr(col[15], want) == col[15] || (x->h.op > TG_OP_REQ_RESP &&
							 x->h.op != TG_OP_CAS),
		      "frame %u info '%s', want '%s'", n, col[15], want);
		/* the nodes the MAC addresses carry */
		snprintf(want, sizeof(want), " %u -> %u ", x->h.src, x->h.dst);
		CHECK(strstr(col[15], want) != NULL, "frame %u info '%s', want '%s'", n, col[15],
		      want);
		/* the FCS the simulator captured is checked, and good */
		CHECK(!strcmp(col[16], "1") || !strcasecmp(col[16], "good"), "frame %u FCS status "
		      "'%s'", n, col[16]);
		if (x->h.status == TG_ST_RANGE) {
			CHECK(strstr(col[15], "status RANGE") != NULL, "frame %u info '%s'", n,
			      col[15]);
			range++;
		}
		/* what the test sent */
		if (x->h.op == TG_OP_WRITE && x->h.addr == base + 0x40 && x->h.len == 64 &&
		    x->h.src == 0 && x->h.dst == 1)
			seen_ops |= 1u << 0;
		if (x->h.op == TG_OP_WRITE && x->h.addr == base + 0x80 && x->h.off == 3 && x->h.cnt == 5 &&
		    x->h.len == 8)
			seen_ops |= 1u << 1;
		if (x->h.op == TG_OP_READ_REQ && x->h.addr == base + 0x100 && x->h.len == 16)
			seen_ops |= 1u << 2;
		if (x->h.op == TG_OP_READ_RESP && x->h.len == 16 && x->h.src == 1 && x->h.dst == 0)
			seen_ops |= 1u << 3;
		if (x->h.op == TG_OP_FAA && x->h.addr == base + 0x200)
			seen_ops |= 1u << 4;
		if (x->h.op == TG_OP_CAS && x->h.addr == base + 0x208)
			seen_ops |= 1u << 5;
		if (x->h.op == TG_OP_ATOMIC_RESP)
			seen_ops |= 1u << 6;
		if (x->h.op == TG_OP_REQ && x->h.addr == qpa)
			seen_ops |= 1u << 7;
		if (x->h.op == TG_OP_REQ_RESP && x->h.status == TG_ST_OK)
			seen_ops |= 1u << 8;
	}
	st = pclose(p);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "tshark exit status %d", st);
	snprintf(cmd, sizeof(cmd), "%s.err", path);
	if (t_failed) {
		FILE *e = fopen(cmd, "r");

		while (e && fgets(line, sizeof(line), e))
			fprintf(stderr, "tshark: %s", line);
		if (e)
			fclose(e);
	}
	unlink(cmd);
	CHECK(rows == nfr, "tshark decoded %u of %u frames", rows, nfr);
	CHECK(seen_ops == 0x1ffu, "operations found in the capture: %#x of 0x1ff", seen_ops);
	CHECK(range == 1, "%u responses with status RANGE", range);
	printf("tshark decoded %u frames as sent\n", rows);
	unlink(path);
	return t_done("test_wireshark");
}
