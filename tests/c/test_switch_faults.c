/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: the switch model against its knobs (no NIC): fault rates, reordering, outages, output buffers, per-link timing, determinism. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../sim/tg_switch.h"
#include "tg_test.h"

#define MAXP     24u
#define MAXF     30000u      /* frames per sending port at most */

struct rx {
	unsigned port, len;
	uint64_t start, end;     /* cycles of the first and last beat */
	uint8_t data[TG_MAX_FRAME_BYTES];
};

struct rig {
	struct tg_switch *sw;
	unsigned nports;
	uint64_t now;
	/* senders: port p sends to_send[p] frames to dst[p] */
	unsigned dst[MAXP], to_send[MAXP], sent[MAXP], off[MAXP], curlen[MAXP];
	uint8_t cur[MAXP][TG_MAX_FRAME_BYTES];
	uint64_t *sent_at[MAXP];  /* cycle the last beat of frame k left port p */
	/* receivers */
	uint8_t rbuf[MAXP][TG_SW_MAX_FRAME];
	unsigned rlen[MAXP];
	uint64_t rstart[MAXP];
	struct rx *log;
	unsigned nlog, caplog;
	unsigned rx_count[MAXP];
	char pcap[256];
};

/* Frame k from src to dst: a WRITE of 64 bytes, seq = k. */
static unsigned make_frame(uint8_t *f, unsigned src, unsigned dst, unsigned k)
{
	struct tg_frame_hdr h;
	uint8_t pl[64];

	memset(&h, 0, sizeof(h));
	h.ver = TG_PROTO_VERSION;
	h.op = TG_OP_WRITE;
	h.src = (uint16_t)src;
	h.dst = (uint16_t)dst;
	h.seq = (uint16_t)k;
	h.addr = 0x1000 + 64ull * k;
	h.cnt = 64;
	h.len = 64;
	for (unsigned i = 0; i < sizeof(pl); i++)
		pl[i] = t_pat(src * 1000003u + k, i);
	return (unsigned)tg_frame_encode(f, &h, pl);
}

static unsigned hdr_src(const uint8_t *f)
{
	return (unsigned)f[10] << 8 | f[11];   /* the source MAC's node id */
}

static unsigned hdr_seq(const uint8_t *f)
{
	const uint8_t *x = f + TG_HDR_OFF + TG_H_SEQ;

	return (unsigned)x[0] << 8 | x[1];
}

/* Bits in which a delivered frame differs from frame (src, dst, k). */
static unsigned bit_distance(const struct rx *r, unsigned src, unsigned dst, unsigned k)
{
	uint8_t f[TG_MAX_FRAME_BYTES];
	unsigned n = make_frame(f, src, dst, k), d = 0;

	if (n != r->len)
		return 1000;
	for (unsigned i = 0; i < n; i++)
		d += (unsigned)__builtin_popcount(f[i] ^ r->data[i]);
	return d;
}

static void rig_init(struct rig *r, unsigned nports, unsigned bpc, uint64_t seed)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	memset(r, 0, sizeof(*r));
	snprintf(r->pcap, sizeof(r->pcap), "%s/tg-test-sw-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(r->pcap);
	REQUIRE(fd >= 0, "mkstemp");
	close(fd);
	r->nports = nports;
	r->sw = tg_switch_create(nports, bpc, 10, 20, 0, 8000, seed, r->pcap);
	REQUIRE(r->sw, "switch: %s", strerror(errno));
	for (unsigned p = 0; p < nports; p++) {
		r->sent_at[p] = calloc(MAXF, sizeof(uint64_t));
		REQUIRE(r->sent_at[p], "memory");
	}
}

static void rig_free(struct rig *r)
{
	tg_switch_destroy(r->sw);
	for (unsigned p = 0; p < r->nports; p++)
		free(r->sent_at[p]);
	free(r->log);
	unlink(r->pcap);
}

static int switch_idle(const struct tg_switch *sw)
{
	for (unsigned p = 0; p < sw->nports; p++) {
		const struct tg_sw_port *pt = &sw->port[p];

		if (pt->in_frame || pt->transit.head || pt->egress.head || pt->held.head)
			return 0;
	}
	return 1;
}

/* Clock the switch until everything is sent and delivered. */
static void rig_run(struct rig *r, uint64_t max_cycles)
{
	uint64_t end = r->now + max_cycles;

	for (; r->now < end; r->now++) {
		int busy = 0;

		for (unsigned p = 0; p < r->nports; p++) {
			uint8_t tready, v, keep, last;
			uint64_t d;

			tg_switch_outputs(r->sw, p, r->now, &tready, &v, &d, &keep, &last, NULL);
			if (v) {
				if (!r->rlen[p])
					r->rstart[p] = r->now;
				for (unsigned i = 0; i < 8 && (keep >> i) & 1; i++)
					if (r->rlen[p] < TG_SW_MAX_FRAME)
						r->rbuf[p][r->rlen[p]++] = (uint8_t)(d >> (8 * i));
				if (last) {
					struct rx *x;

					if (r->nlog == r->caplog) {
						r->caplog = r->caplog ? 2 * r->caplog : 1024;
						r->log = realloc(r->log, r->caplog * sizeof(*r->log));
						REQUIRE(r->log, "memory");
					}
					x = &r->log[r->nlog++];
					x->port = p;
					x->len = r->rlen[p] < TG_MAX_FRAME_BYTES ? r->rlen[p]
										   : TG_MAX_FRAME_BYTES;
					memcpy(x->data, r->rbuf[p], x->len);
					x->start = r->rstart[p];
					x->end = r->now;
					r->rx_count[p]++;
					r->rlen[p] = 0;
				}
				tg_switch_rx_fire(r->sw, p);
			}
			if (r->off[p] == 0 && r->sent[p] < r->to_send[p] && !r->curlen[p])
				r->curlen[p] = make_frame(r->cur[p], p, r->dst[p], r->sent[p]);
			if (r->curlen[p])
				busy = 1;
			if (tready && r->curlen[p]) {
				unsigned k = r->curlen[p] - r->off[p];
				uint64_t data = 0;

				if (k > 8)
					k = 8;
				for (unsigned i = 0; i < k; i++)
					data |= (uint64_t)r->cur[p][r->off[p] + i] << (8 * i);
				r->off[p] += k;
				CHECK(tg_switch_tx_beat(r->sw, p, r->now, data,
							(uint8_t)((1u << k) - 1u),
							r->off[p] == r->curlen[p]) == 0, "tkeep");
				if (r->off[p] == r->curlen[p]) {
					r->sent_at[p][r->sent[p]++] = r->now;
					r->off[p] = 0;
					r->curlen[p] = 0;
				}
			}
		}
		tg_switch_advance(r->sw, r->now);
		if (!busy && switch_idle(r->sw)) {
			r->now++;
			break;
		}
	}
}

/* x is within 5 standard deviations of a binomial(n, ppm / 1e6). */
static int plausible(uint64_t x, uint64_t n, uint32_t ppm)
{
	double p = ppm / 1e6, mean = (double)n * p, sd = sqrt((double)n * p * (1 - p));

	return fabs((double)x - mean) <= 5 * sd + 1;
}

#define N_RATE 20000u

/* One fault at a time over N_RATE frames from port 0 to port 1. */
enum fault { F_DROP, F_FLIP, F_DUP, F_REORDER };

static void test_rate(const char *what, enum fault knob, uint32_t ppm)
{
	struct rig r;
	const struct tg_sw_port *s0;
	unsigned flipped = 0, twice = 0, inversions = 0, max_seq = 0, bad_order = 0;
	unsigned recs, bad;
	uint64_t got;

	rig_init(&r, 2, 8, t_seed());
	*(knob == F_DROP ? &r.sw->drop_ppm : knob == F_FLIP ? &r.sw->flip_ppm :
	  knob == F_DUP ? &r.sw->dup_ppm : &r.sw->reorder_ppm) = ppm;
	r.dst[0] = 1;
	r.to_send[0] = N_RATE;
	rig_run(&r, 10000000);
	s0 = &r.sw->port[0];
	REQUIRE(r.sent[0] == N_RATE, "%s: sent %u of %u", what, r.sent[0], N_RATE);
	for (unsigned i = 0, exp = 0; i < r.nlog; i++) {
		const struct rx *x = &r.log[i];
		unsigned seq = hdr_seq(x->data);

		if (knob == F_FLIP) {
			/* in order, nothing lost: the i-th frame is frame i */
			unsigned d = bit_distance(x, 0, 1, i);

			CHECK(d <= 1, "%s: frame %u differs in %u bits", what, i, d);
			flipped += d == 1;
			continue;
		}
		CHECK(bit_distance(x, 0, 1, seq) == 0, "%s: frame %u changed", what, seq);
		if (i && seq == hdr_seq(r.log[i - 1].data))
			twice++;
		else if (seq < exp && knob != F_REORDER)
			bad_order++;
		if (i && seq < max_seq)
			inversions++;
		if (seq > max_seq)
			max_seq = seq;
		exp = seq + 1;
	}
	got = r.nlog;
	recs = (unsigned)t_pcap_frames(r.pcap, &bad);
	if (knob == F_DROP) {
		CHECK(plausible(s0->drop_injected, N_RATE, ppm), "%s: %" PRIu64 " of %u", what,
		      s0->drop_injected, N_RATE);
		CHECK(got == N_RATE - s0->drop_injected, "%s: %" PRIu64 " delivered", what, got);
		CHECK(bad_order == 0 && twice == 0, "%s: order broken", what);
		printf("%s %u ppm: %" PRIu64 " of %u lost\n", what, ppm, s0->drop_injected, N_RATE);
	} else if (knob == F_FLIP) {
		CHECK(plausible(s0->corrupt_injected, N_RATE, ppm), "%s: %" PRIu64 " of %u", what,
		      s0->corrupt_injected, N_RATE);
		CHECK(got == N_RATE && flipped == s0->corrupt_injected,
		      "%s: %u frames delivered with a flipped bit, %" PRIu64 " counted", what,
		      flipped, s0->corrupt_injected);
		/* the capture shows the flipped frames: their FCS fails */
		CHECK(bad == flipped, "%s: %u bad captured frames, want %u", what, bad, flipped);
		printf("%s %u ppm: %" PRIu64 " of %u flipped\n", what, ppm, s0->corrupt_injected,
		       N_RATE);
	} else if (knob == F_DUP) {
		CHECK(plausible(s0->dup_injected, N_RATE, ppm), "%s: %" PRIu64 " of %u", what,
		      s0->dup_injected, N_RATE);
		CHECK(got == N_RATE + s0->dup_injected && twice == s0->dup_injected,
		      "%s: %" PRIu64 " delivered, %u twice, %" PRIu64 " counted", what, got, twice,
		      s0->dup_injected);
		CHECK(bad_order == 0, "%s: order broken", what);
		printf("%s %u ppm: %" PRIu64 " of %u duplicated\n", what, ppm, s0->dup_injected,
		       N_RATE);
	} else {
		CHECK(plausible(s0->reorder_injected, N_RATE, ppm), "%s: %" PRIu64 " of %u", what,
		      s0->reorder_injected, N_RATE);
		CHECK(got == N_RATE && twice == 0, "%s: %" PRIu64 " delivered", what, got);
		CHECK(inversions > 0 && inversions <= s0->reorder_injected,
		      "%s: %u frames overtaken, %" PRIu64 " held back", what, inversions,
		      s0->reorder_injected);
		printf("%s %u ppm: %" PRIu64 " of %u held back, %u arrived after a later one\n",
		       what, ppm, s0->reorder_injected, N_RATE, inversions);
	}
	/* the tap sits at the output port: it shows what was delivered */
	CHECK(recs == got, "%s: %u frames captured, %" PRIu64 " delivered", what, recs, got);
	rig_free(&r);
}

/* All faults at once: counters add up, and a run repeats byte for byte. */
static void run_mixed(uint64_t seed, uint8_t **pcap, size_t *pcap_len, uint64_t *delivered)
{
	struct rig r;
	uint64_t sent = 0, drop = 0, dup = 0;
	FILE *f;

	rig_init(&r, 4, 4, seed);
	r.sw->drop_ppm = 20000;
	r.sw->flip_ppm = 20000;
	r.sw->dup_ppm = 20000;
	r.sw->reorder_ppm = 20000;
	r.sw->reorder_depth = 3;
	for (unsigned p = 0; p < 4; p++) {
		r.dst[p] = (p + 1) % 4;
		r.to_send[p] = 3000;
	}
	rig_run(&r, 10000000);
	for (unsigned p = 0; p < 4; p++) {
		sent += r.sent[p];
		drop += r.sw->port[p].drop_injected;
		dup += r.sw->port[p].dup_injected;
	}
	CHECK(sent == 12000 && r.nlog == sent - drop + dup, "mixed: %" PRIu64 " sent, %u "
	      "delivered, %" PRIu64 " lost, %" PRIu64 " duplicated", sent, r.nlog, drop, dup);
	*delivered = r.nlog;
	tg_switch_destroy(r.sw);
	r.sw = NULL;
	f = fopen(r.pcap, "rb");
	REQUIRE(f, "pcap");
	fseek(f, 0, SEEK_END);
	*pcap_len = (size_t)ftell(f);
	rewind(f);
	*pcap = malloc(*pcap_len);
	REQUIRE(*pcap && fread(*pcap, 1, *pcap_len, f) == *pcap_len, "pcap read");
	fclose(f);
	rig_free(&r);
}

static void test_determinism(void)
{
	uint8_t *a, *b, *c;
	size_t la, lb, lc;
	uint64_t da, db, dc;

	run_mixed(7, &a, &la, &da);
	run_mixed(7, &b, &lb, &db);
	run_mixed(8, &c, &lc, &dc);
	CHECK(la == lb && memcmp(a, b, la) == 0, "same seed: captures differ (%zu, %zu bytes)",
	      la, lb);
	CHECK(la != lc || memcmp(a, c, la) != 0, "another seed: the same capture");
	printf("mixed faults: seed 7 delivered %" PRIu64 " frames (%zu capture bytes), seed 8 "
	       "%" PRIu64 "\n", da, la, dc);
	free(a);
	free(b);
	free(c);
}

/* A link that goes down loses everything to and from its node, then resumes. */
static void test_outage(void)
{
	const uint64_t t1 = 20000, t2 = 40000;
	struct rig r;
	unsigned late_to1 = 0, late_from1 = 0, lost = 0;

	rig_init(&r, 3, 8, t_seed());
	REQUIRE(tg_switch_schedule_down(r.sw, 1, t1, t2) == 0, "schedule");
	CHECK(tg_switch_schedule_down(r.sw, 1, 5, 5) == -EINVAL, "empty outage accepted");
	r.dst[0] = 1;
	r.dst[1] = 0;
	r.dst[2] = 0;
	r.to_send[0] = r.to_send[1] = r.to_send[2] = 3000;
	rig_run(&r, 10000000);
	for (unsigned i = 0; i < r.nlog; i++) {
		const struct rx *x = &r.log[i];
		unsigned src = hdr_src(x->data), seq = hdr_seq(x->data);

		if (x->port == 1) {
			CHECK(x->start < t1 || x->start >= t2,
			      "frame delivered to the dead link at cycle %" PRIu64, x->start);
			late_to1 += x->start >= t2;
		}
		if (src == 1) {
			uint64_t at = r.sent_at[1][seq];

			CHECK(at < t1 || at >= t2, "frame sent at %" PRIu64 " into the dead link "
			      "delivered", at);
			late_from1 += at >= t2;
		}
	}
	for (unsigned p = 0; p < 3; p++)
		lost += (unsigned)r.sw->port[p].drop_link_down;
	CHECK(r.sw->port[1].drop_link_down > 0 && lost == r.sw->port[1].drop_link_down,
	      "outage losses counted on the wrong ports");
	CHECK(9000 - r.nlog == lost, "%u sent, %u delivered, %u counted lost", 9000u, r.nlog,
	      lost);
	CHECK(r.rx_count[2] == 0 && r.rx_count[0] > 0, "deliveries");
	CHECK(late_to1 > 0 && late_from1 > 0, "traffic did not resume after the outage");
	printf("outage of node 1 for cycles [%" PRIu64 ", %" PRIu64 "): %u frames lost, "
	       "%u to and %u from it after\n", t1, t2, lost, late_to1, late_from1);

	/* down and up by hand */
	tg_switch_set_down(r.sw, 2, 1);
	CHECK(tg_switch_is_down(r.sw, 2, r.now), "set_down");
	tg_switch_set_down(r.sw, 2, 0);
	CHECK(!tg_switch_is_down(r.sw, 2, r.now) && !tg_switch_is_down(r.sw, 1, t2),
	      "link up again");
	rig_free(&r);
}

/* Finite output buffers drop under incast, and never without congestion.
 * 20 ports: 8 send to port 0, the other 11 in a ring. */
static void test_buffers(uint32_t bytes)
{
	struct rig r;
	uint64_t cong_elsewhere = 0;

	rig_init(&r, 20, 1, t_seed());
	for (unsigned p = 0; p < 20; p++)
		r.sw->port[p].buf_bytes = bytes;
	for (unsigned p = 1; p <= 8; p++) {
		r.dst[p] = 0;
		r.to_send[p] = 100;
	}
	for (unsigned p = 9; p < 20; p++) {
		r.dst[p] = p == 19 ? 9 : p + 1;
		r.to_send[p] = 100;
	}
	rig_run(&r, 10000000);
	for (unsigned p = 1; p < 20; p++)
		cong_elsewhere += r.sw->port[p].drop_congestion;
	CHECK(cong_elsewhere == 0, "%" PRIu64 " congestion drops without congestion",
	      cong_elsewhere);
	for (unsigned p = 9; p < 20; p++)
		CHECK(r.rx_count[p] == 100, "port %u got %u of 100", p, r.rx_count[p]);
	CHECK(r.rx_count[0] + r.sw->port[0].drop_congestion == 800,
	      "incast: %u delivered + %" PRIu64 " dropped != 800", r.rx_count[0],
	      r.sw->port[0].drop_congestion);
	if (bytes)
		CHECK(r.sw->port[0].drop_congestion > 0, "incast into %u bytes: no drop", bytes);
	else
		CHECK(r.sw->port[0].drop_congestion == 0, "unlimited buffer dropped");
	printf("incast of 8 into a buffer of %u bytes: %u delivered, %" PRIu64 " dropped\n",
	       bytes, r.rx_count[0], r.sw->port[0].drop_congestion);
	rig_free(&r);
}

/* Per-link latency and bandwidth: a frame crosses its sender's cable, then
 * its receiver's. */
static void test_links(void)
{
	struct rig r;
	unsigned n;
	uint64_t lo, hi;

	rig_init(&r, 3, 1, t_seed());
	CHECK(tg_switch_set_link(r.sw, 1, 100, 0) == -EINVAL, "0 bytes per cycle accepted");
	CHECK(tg_switch_set_link(r.sw, 3, 100, 1) == -EINVAL, "bad port accepted");
	REQUIRE(tg_switch_set_link(r.sw, 0, 3, 4) == 0, "set_link");
	REQUIRE(tg_switch_set_link(r.sw, 1, 100, 2) == 0, "set_link");
	r.dst[0] = 1;
	r.to_send[0] = 1;
	rig_run(&r, 100000);
	REQUIRE(r.nlog == 1, "delivered %u", r.nlog);
	n = r.log[0].len;
	/* up: (8 + n) / 4 + 3 cycles; down: (8 + n) / 2 + 100 cycles */
	lo = (8 + n) / 4 + 3 + (8 + n) / 2 + 100;
	hi = lo + 12;
	CHECK(r.log[0].end >= lo && r.log[0].end <= hi, "frame of %u bytes delivered at cycle "
	      "%" PRIu64 ", want %" PRIu64 "..%" PRIu64, n, r.log[0].end, lo, hi);

	/* a held frame no other frame passes is released after reorder_hold */
	r.sw->reorder_ppm = TG_SW_PPM;
	r.sw->reorder_hold = 500;
	r.to_send[0] = 2;
	r.now += 1000;
	lo = r.now;
	rig_run(&r, 100000);
	CHECK(r.nlog == 2 && r.log[1].end >= lo + 500 && r.log[1].end <= lo + 500 + hi,
	      "held frame delivered at cycle %" PRIu64 ", hold from %" PRIu64,
	      r.log[r.nlog - 1].end, lo);
	CHECK(r.sw->port[0].reorder_injected == 1, "held %" PRIu64,
	      r.sw->port[0].reorder_injected);
	rig_free(&r);
}

int main(void)
{
	test_rate("loss", F_DROP, 2500);
	test_rate("bit flips", F_FLIP, 50000);
	test_rate("duplicates", F_DUP, 30000);
	test_rate("reordering", F_REORDER, 40000);
	test_determinism();
	test_outage();
	test_buffers(1024);
	test_buffers(0);
	test_links();
	return t_done("test_switch_faults");
}
