/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: the simulator's host memory and switch models on their own (no NIC). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "../../sim/tg_memmodel.h"
#include "../../sim/tg_switch.h"
#include "tg_test.h"

static void test_memory(void)
{
	static uint8_t mem[4096];
	struct tg_memmodel m;
	uint64_t rd, now, accepted = 0, answered = 0, lat_seen_max = 0, acc_at[64];
	uint8_t ready, valid;

	tg_mm_init(&m, mem, sizeof(mem), 3, 9, 30, 12345);
	/* byte strobes applied exactly, responses in order, latency in range */
	memset(mem, 0xcc, sizeof(mem));
	for (now = 0; answered < 40 && now < 10000; now++) {
		tg_mm_outputs(&m, now, &ready, &valid, &rd);
		if (valid) {
			uint64_t lat = now - acc_at[answered % 64];

			CHECK(lat >= 3, "response %" PRIu64 " after %" PRIu64 " cycles", answered, lat);
			if (lat > lat_seen_max)
				lat_seen_max = lat;
			if (answered >= 20) {  /* the reads: see the writes before them */
				uint64_t k = answered - 20, want = 0;

				for (unsigned i = 0; i < 8; i++)
					want |= (uint64_t)((k >> i) & 1 ? 0x10 + i : 0xcc) << (8 * i);
				CHECK(rd == want, "read %" PRIu64 ": %#" PRIx64 ", want %#" PRIx64, k, rd,
				      want);
			}
			answered++;
		}
		if (ready && accepted < 40) {
			uint64_t k = accepted % 20;

			acc_at[accepted % 64] = now;
			if (accepted < 20)
				tg_mm_accept(&m, now, 1, 64 * k, 0x1716151413121110ULL, (uint8_t)k);
			else
				tg_mm_accept(&m, now, 0, 64 * k, 0, 0);
			accepted++;
		}
	}
	CHECK(answered == 40, "%" PRIu64 " of 40 answered", answered);
	CHECK(m.writes == 20 && m.reads == 20 && m.oob == 0, "counters");
	/* beyond the memory: ignored and counted */
	tg_mm_accept(&m, now, 1, sizeof(mem), ~0ULL, 0xff);
	for (unsigned i = 0; i < 100; i++)
		tg_mm_outputs(&m, now + i, &ready, &valid, &rd);
	CHECK(m.oob == 1, "out-of-bounds write not counted");
}

/* Push one frame into port p, one beat per cycle when ready. */
static uint64_t send(struct tg_switch *sw, unsigned p, uint64_t now, const uint8_t *f, unsigned n)
{
	unsigned off = 0;

	while (off < n) {
		uint8_t tready, v, keep, last;
		uint64_t d;

		tg_switch_outputs(sw, p, now, &tready, &v, &d, &keep, &last, NULL);
		if (tready) {
			unsigned k = n - off < 8 ? n - off : 8;
			uint64_t data = 0;

			for (unsigned i = 0; i < k; i++)
				data |= (uint64_t)f[off + i] << (8 * i);
			CHECK(tg_switch_tx_beat(sw, p, now, data, (uint8_t)((1u << k) - 1u),
						off + k == n) == 0, "tkeep");
			off += k;
		}
		tg_switch_advance(sw, now);
		now++;
	}
	return now;
}

static void test_switch(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/tg-test-pcap-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	struct tg_switch *sw;
	struct tg_frame_hdr h;
	uint8_t f[TG_MAX_FRAME_BYTES], got[TG_MAX_FRAME_BYTES], pl[64];
	uint64_t now = 0, first_beat = 0, last_beat = 0;
	unsigned n, glen = 0;

	REQUIRE(fd >= 0, "mkstemp");
	close(fd);
	sw = tg_switch_create(4, 1, 10, 20, 0, 8000, 1, path);
	REQUIRE(sw, "switch");
	memset(&h, 0, sizeof(h));
	h.ver = TG_PROTO_VERSION;
	h.op = TG_OP_WRITE;
	h.src = 0;
	h.dst = 2;
	h.len = 64;
	for (unsigned i = 0; i < 64; i++)
		pl[i] = (uint8_t)i;
	n = (unsigned)tg_frame_encode(f, &h, pl);
	now = send(sw, 0, 0, f, n);
	/* 1 byte/cycle: 8 preamble + n bytes on the uplink, 10 cycles of cable,
	 * the same again on the downlink */
	for (; now < 2000; now++) {
		uint8_t tready, v, keep, last;
		uint64_t d;

		for (unsigned p = 0; p < 4; p++) {
			tg_switch_outputs(sw, p, now, &tready, &v, &d, &keep, &last, NULL);
			if (!v)
				continue;
			CHECK(p == 2, "frame delivered to port %u", p);
			if (!glen)
				first_beat = now;
			for (unsigned i = 0; i < 8 && (keep >> i) & 1; i++)
				got[glen++] = (uint8_t)(d >> (8 * i));
			CHECK(last == (glen == n), "tlast at %u of %u", glen, n);
			last_beat = now;
			tg_switch_rx_fire(sw, p);
		}
		tg_switch_advance(sw, now);
	}
	CHECK(glen == n && memcmp(got, f, n) == 0, "frame changed on the way (%u of %u)", glen, n);
	CHECK(last_beat >= 2 * (8 + n) + 2 * 10, "delivered after %" PRIu64 " cycles, faster "
	      "than two links of %u bytes", last_beat, n);
	CHECK(last_beat <= 2 * (8 + n) + 2 * 10 + 40, "delivered late: %" PRIu64, last_beat);
	CHECK(first_beat < last_beat, "beats spread over the downlink");
	printf("frame of %u bytes: first beat at cycle %" PRIu64 ", last at %" PRIu64 "\n", n,
	       first_beat, last_beat);

	/* unknown node: dropped and counted */
	h.dst = 9;
	n = (unsigned)tg_frame_encode(f, &h, pl);
	now = send(sw, 1, now, f, n);
	for (unsigned i = 0; i < 500; i++)
		tg_switch_advance(sw, now++);
	CHECK(sw->port[1].drop_unknown == 1, "unknown destination not counted");
	CHECK(sw->port[0].tx_frames == 1 && sw->port[2].rx_frames == 1, "frame counters");
	tg_switch_destroy(sw);

	/* the pcap file, tapped at the output ports: only the delivered
	 * frame, whole and valid */
	{
		unsigned bad;
		int recs = t_pcap_frames(path, &bad);

		CHECK(recs == 1 && bad == 0, "%d pcap records (%u bad), want 1", recs, bad);
	}

	/* tapped at the ingress: both frames as sent */
	sw = tg_switch_create(4, 1, 10, 20, 0, 8000, 1, path);
	REQUIRE(sw, "switch");
	sw->pcap_ingress = 1;
	now = send(sw, 0, 0, f, n);
	h.dst = 2;
	n = (unsigned)tg_frame_encode(f, &h, pl);
	now = send(sw, 1, now, f, n);
	for (unsigned i = 0; i < 500; i++)
		tg_switch_advance(sw, now++);
	tg_switch_destroy(sw);
	{
		unsigned bad;
		int recs = t_pcap_frames(path, &bad);

		CHECK(recs == 2 && bad == 0, "%d ingress pcap records (%u bad), want 2", recs, bad);
	}
	unlink(path);
}

/* Collect what port p offers until `end`: the bytes of one frame, the
 * cycle of its last beat and its tuser.  Returns the byte count. */
static unsigned recv_frame(struct tg_switch *sw, unsigned p, uint64_t *now, uint64_t end,
			   uint8_t *got, uint64_t *last_at, uint8_t *user)
{
	unsigned glen = 0;

	for (; *now < end; (*now)++) {
		uint8_t tready, v, keep, last, u;
		uint64_t d;

		tg_switch_outputs(sw, p, *now, &tready, &v, &d, &keep, &last, &u);
		if (v) {
			for (unsigned i = 0; i < 8 && (keep >> i) & 1; i++)
				got[glen++] = (uint8_t)(d >> (8 * i));
			CHECK(!u || last, "tuser before the last beat");
			tg_switch_rx_fire(sw, p);
			if (last) {
				*last_at = *now;
				*user = u;
				tg_switch_advance(sw, (*now)++);
				return glen;
			}
		}
		tg_switch_advance(sw, *now);
	}
	return glen;
}

/* The ports as the NICs' MACs (mac_fcs): a frame sent without FCS goes on
 * the wire with it, and comes out of its output without it, its last beat
 * only once the FCS has arrived; a corrupted frame, and one no longer than
 * an FCS (offered whole), are marked with tuser. */
static void test_switch_mac(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[512];
	int fd;
	struct tg_switch *sw;
	struct tg_frame_hdr h;
	uint8_t f[TG_MAX_FRAME_BYTES], got[TG_MAX_FRAME_BYTES], pl[64], user = 9;
	uint64_t now, last_at = 0;
	unsigned n, glen;

	snprintf(path, sizeof(path), "%s/tg-test-pcap-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	REQUIRE(fd >= 0, "mkstemp");
	close(fd);
	sw = tg_switch_create(4, 1, 10, 20, 0, 8000, 1, path);
	REQUIRE(sw, "switch");
	sw->mac_fcs = 1;
	memset(&h, 0, sizeof(h));
	h.ver = TG_PROTO_VERSION;
	h.op = TG_OP_WRITE;
	h.dst = 2;
	h.len = 16;
	for (unsigned i = 0; i < 16; i++)
		pl[i] = (uint8_t)(7 * i);
	n = (unsigned)tg_frame_encode(f, &h, pl);   /* FCS included */
	now = send(sw, 0, 0, f, n - (unsigned)TG_FCS_BYTES);
	glen = recv_frame(sw, 2, &now, 2000, got, &last_at, &user);
	CHECK(glen == n - TG_FCS_BYTES && memcmp(got, f, glen) == 0 && user == 0,
	      "frame out: %u bytes of %u, tuser %u", glen, n - (unsigned)TG_FCS_BYTES, user);
	/* the FCS's bytes took their time on both links */
	CHECK(last_at >= 2 * (8 + n) + 2 * 10, "last beat at %" PRIu64 ", before the FCS arrived",
	      last_at);
	CHECK(sw->port[0].tx_bytes == n, "%" PRIu64 " bytes sent, want %u", sw->port[0].tx_bytes, n);

	/* every frame corrupted on the way: marked bad */
	sw->flip_ppm = TG_SW_PPM;
	now = send(sw, 1, now, f, n - (unsigned)TG_FCS_BYTES);
	glen = recv_frame(sw, 2, &now, now + 2000, got, &last_at, &user);
	CHECK(glen == n - TG_FCS_BYTES && user == 1, "corrupted frame: %u bytes, tuser %u", glen, user);

	/* no longer than an FCS: offered whole, marked bad */
	REQUIRE(tg_switch_put_frame(sw, 3, now, f, 3) == 0, "put");
	glen = recv_frame(sw, 3, &now, now + 2000, got, &last_at, &user);
	CHECK(glen == 3 && user == 1, "3-byte frame: %u bytes, tuser %u", glen, user);
	tg_switch_destroy(sw);

	/* on the wire (the capture at the outputs), the frames carry their FCS */
	{
		unsigned bad;
		int recs = t_pcap_frames(path, &bad);

		CHECK(recs == 3 && bad == 2, "%d pcap records, %u with a bad FCS; want 3 and 2", recs,
		      bad);
	}
	unlink(path);
}

int main(void)
{
	test_memory();
	test_switch();
	test_switch_mac();
	return t_done("test_models");
}
