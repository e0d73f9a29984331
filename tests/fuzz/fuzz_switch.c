/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* libFuzzer harness: the switch model fed arbitrary beats by its NICs, with faults, buffers and outages; every frame is accounted for. */
#include <string.h>

#include "../../sim/tg_switch.h"
#include "fuzz_input.h"
#include "tg/tg_frame.h"

/*
 * Input: a configuration (ports, link speed and latency, fault rates,
 * output buffers, an outage), then records of one control byte and eight
 * data bytes, each the next beat of one port's NIC:
 *   ctrl[1:0] port, ctrl[2] tlast, ctrl[5:3] bytes kept - 1 on a last
 *   beat, ctrl[6] the beat starts with the MAC of node data[0] % 4,
 *   ctrl[7] the NIC takes no RX beat this cycle.
 * Then the switch is drained.  Properties: every RX beat keeps the stream
 * rules, and every frame that entered the switch left it once (plus its
 * duplicates) or is counted as dropped, with no byte left in a buffer.
 */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define DRAIN_CYCLES  400000u

static int tkeep_ok(uint8_t k, int last)
{
	return k && !(k & (k + 1u)) && (last || k == 0xFF);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	unsigned nports = 1 + fz_u8(&in) % 4, bpc = 1 + fz_u8(&in) % 16;
	unsigned lat = fz_u8(&in) % 64, stall = fz_u8(&in) % 50;
	uint8_t f = fz_u8(&in);
	struct tg_switch *sw = tg_switch_create(nports, bpc, lat, 20, stall, 8000, fz_le(&in, 8) | 1,
						NULL);
	uint64_t now = 0, idle = 0, in_sum = 0, out_sum = 0;
	uint8_t open[4] = { 0 };

	if (!sw)
		return 0;
	sw->drop_ppm = f & 1 ? 100000 : 0;
	sw->flip_ppm = f & 2 ? 200000 : 0;
	sw->dup_ppm = f & 4 ? 200000 : 0;
	sw->reorder_ppm = f & 8 ? 300000 : 0;
	sw->reorder_depth = 1 + fz_u8(&in) % 4;
	sw->reorder_hold = 1 + fz_u8(&in) * 16u;
	sw->fwd_latency = fz_u8(&in);
	if (f & 16)
		for (unsigned p = 0; p < nports; p++)
			sw->port[p].buf_bytes = 64 + fz_le(&in, 2) % 4096;
	if (f & 32) {
		unsigned p = fz_u8(&in) % nports;
		uint64_t from = fz_le(&in, 2);

		tg_switch_schedule_down(sw, p, from, from + 1 + fz_le(&in, 2));
	}
	if (f & 64)
		tg_switch_set_down(sw, fz_u8(&in) % nports, 1);

	for (;; now++) {
		int busy = in.n > 0;
		uint8_t ctrl = in.n ? in.p[0] : 0;

		for (unsigned p = 0; p < nports; p++) {
			uint8_t tready, rv, rk, rl;
			uint64_t rd;

			tg_switch_outputs(sw, p, now, &tready, &rv, &rd, &rk, &rl, NULL);
			if (rv) {
				FZ_ASSERT(tkeep_ok(rk, rl), "port %u RX tkeep 0x%02x last %u", p, rk, rl);
				if (!(in.n && (ctrl & 0x80)))
					tg_switch_rx_fire(sw, p);
			}
			if (in.n && tready && (ctrl & 3u) % nports == p) {
				uint8_t b[8];
				int last = ctrl >> 2 & 1;
				uint8_t keep = last ? (uint8_t)((1u << (1 + (ctrl >> 3 & 7))) - 1) : 0xFF;
				uint64_t d = 0;

				fz_u8(&in);
				for (unsigned i = 0; i < 8; i++)
					b[i] = fz_u8(&in);
				if ((ctrl & 0x40) && !open[p])
					tg_node_mac(b, b[0] % 4u);
				for (unsigned i = 0; i < 8; i++)
					d |= (uint64_t)b[i] << (8 * i);
				FZ_ASSERT(tg_switch_tx_beat(sw, p, now, d, keep, last) == 0, "tx beat");
				open[p] = !last;
			}
		}
		tg_switch_advance(sw, now);
		if (busy)
			continue;
		/* input used up: end the frames still open, then drain */
		for (unsigned p = 0; p < nports; p++)
			if (open[p]) {
				tg_switch_tx_beat(sw, p, now, 0, 1, 1);
				open[p] = 0;
			}
		busy = 0;
		for (unsigned p = 0; p < nports; p++)
			busy |= sw->port[p].transit.head || sw->port[p].egress.head ||
				sw->port[p].held.head;
		if (!busy || ++idle > DRAIN_CYCLES)
			break;
	}
	for (unsigned p = 0; p < nports; p++) {
		struct tg_sw_port *pt = &sw->port[p];

		FZ_ASSERT(!pt->transit.head && !pt->egress.head && !pt->held.head,
			  "port %u still holds frames after %u cycles", p, DRAIN_CYCLES);
		FZ_ASSERT(pt->buf_used == 0, "port %u buffer holds %llu bytes", p,
			  (unsigned long long)pt->buf_used);
		in_sum += pt->tx_frames + pt->dup_injected;
		out_sum += pt->rx_frames + pt->drop_unknown + pt->drop_injected +
			   pt->drop_congestion + pt->drop_link_down;
	}
	FZ_ASSERT(in_sum == out_sum, "%llu frames in (with duplicates), %llu out or dropped",
		  (unsigned long long)in_sum, (unsigned long long)out_sum);
	tg_switch_destroy(sw);
	return 0;
}
