/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Store-and-forward Ethernet switch model joining the NICs' AXI-Stream ports, with a pcap tap. */
#ifndef TG_SWITCH_H
#define TG_SWITCH_H

#include <stdint.h>
#include <stdio.h>

#define TG_SW_MAX_FRAME  2048u  /* longer frames are dropped as malformed */

struct tg_sw_frame {
	struct tg_sw_frame *next;
	uint64_t due;            /* transit: cycle the whole frame is in the switch */
	uint64_t data_b;         /* egress: byte-time its first byte goes on the wire */
	unsigned len, dst;
	uint8_t data[];
};

struct tg_sw_fifo {
	struct tg_sw_frame *head, *tail;
};

struct tg_sw_port {
	/* ingress: NIC TX -> cable -> switch */
	uint8_t buf[TG_SW_MAX_FRAME];
	unsigned len;
	int in_frame, too_long;
	uint64_t cursor_b;       /* byte-time of the next byte of the current frame */
	uint64_t free_b;         /* byte-time the uplink is free for the next frame */
	struct tg_sw_fifo transit;
	/* egress: switch -> cable -> NIC RX */
	uint64_t eg_free_b;
	struct tg_sw_fifo egress;
	unsigned rx_beat;
	/* counters */
	uint64_t tx_frames, tx_bytes, rx_frames, drop_unknown, drop_malformed;
	uint64_t drop_injected, corrupt_injected;
};

struct tg_switch {
	unsigned nports;
	unsigned bpc;            /* bytes per cycle on every link */
	unsigned latency;        /* cycles on each cable */
	unsigned fwd_latency;    /* cycles inside the switch after the last byte (default 0) */
	unsigned overhead;       /* preamble + SFD + IFG bytes per frame */
	unsigned tx_stall_pct;
	unsigned drop_pct, corrupt_pct;
	unsigned ps_per_cycle;
	uint64_t rng;
	FILE *pcap;
	struct tg_sw_port *port;
};

/* NULL + errno on failure.  pcap_path may be NULL.  Loss and corruption
 * (drop_pct, corrupt_pct) are set in the returned switch, default 0. */
struct tg_switch *tg_switch_create(unsigned nports, unsigned bytes_per_cycle, unsigned latency,
				   unsigned overhead, unsigned tx_stall_pct, unsigned ps_per_cycle,
				   uint64_t seed, const char *pcap_path);
void tg_switch_destroy(struct tg_switch *sw);

/* The NIC inputs of port p for cycle `now`. */
void tg_switch_outputs(struct tg_switch *sw, unsigned p, uint64_t now, uint8_t *tx_tready,
		       uint8_t *rx_tvalid, uint64_t *rx_tdata, uint8_t *rx_tkeep,
		       uint8_t *rx_tlast);

/* A TX beat of port p fired in cycle `now`.  Returns 0, or -1 if tkeep
 * breaks the stream rules (the beat is still taken). */
int tg_switch_tx_beat(struct tg_switch *sw, unsigned p, uint64_t now, uint64_t tdata,
		      uint8_t tkeep, int tlast);

/* The RX beat offered on port p fired. */
void tg_switch_rx_fire(struct tg_switch *sw, unsigned p);

/* End of cycle `now`: frames that have crossed their cable enter the switch
 * and are queued on their output port. */
void tg_switch_advance(struct tg_switch *sw, uint64_t now);

#endif /* TG_SWITCH_H */
