/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Store-and-forward Ethernet switch model joining the NICs' AXI-Stream ports, with fault injection and a pcap tap. */
#ifndef TG_SWITCH_H
#define TG_SWITCH_H

#include <stdint.h>
#include <stdio.h>

#define TG_SW_MAX_FRAME  2048u     /* longer frames are dropped as malformed */
#define TG_SW_PPM        1000000u  /* fault rates are parts per million of frames */

struct tg_sw_frame {
	struct tg_sw_frame *next;
	uint64_t due;            /* transit: cycle the whole frame is in the switch;
				  * held: cycle it is released at the latest */
	uint64_t data_b;         /* egress: byte-time its first byte goes on the wire */
	uint64_t seq;            /* its number among the frames its source port sent */
	unsigned len, src, dst;
	unsigned hold;           /* held: frames still to let pass */
	int reorder;             /* to be held back at its output (drawn at the source) */
	int uplink;              /* came in through the uplink (not copied back out) */
	int fcs_state;           /* egress with mac_fcs: 0 not checked yet, 1 FCS good, 2 bad */
	uint8_t data[];
};

struct tg_sw_fifo {
	struct tg_sw_frame *head, *tail;
};

struct tg_sw_down {              /* scheduled outage: cycles [from, to) */
	uint64_t from, to;
};

struct tg_sw_port {
	/* the cable: both directions share bandwidth and latency */
	unsigned bpc;            /* bytes per cycle */
	unsigned latency;        /* cycles */
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
	struct tg_sw_fifo held;  /* frames held back (reordering) */
	unsigned rx_beat;
	uint64_t buf_used;       /* bytes of frames queued or held for this output */
	uint64_t buf_bytes;      /* output buffer size, 0 = unlimited */
	int remote;              /* its node lives in another rank (docs/distributed.md) */
	/* random streams of this port alone, so that a split cluster draws
	 * what one process draws: TX stalls, and faults of the frames it sends */
	uint64_t rng, fault_rng;
	uint64_t tx_seq;         /* frames it sent into the switch (tg_sw_frame.seq) */
	uint64_t put_seq;        /* frames tg_switch_put_frame queued on its output */
	/* link state */
	int down;                /* set by tg_switch_set_down */
	struct tg_sw_down *sched;
	unsigned nsched;
	/* counters: tx_*, drop_unknown, drop_malformed and the *_injected ones
	 * count frames this port sent; rx_frames, drop_congestion count frames
	 * to it; drop_link_down both (its link was down).  Each is counted by
	 * the rank that hosts the port. */
	uint64_t tx_frames, tx_bytes, rx_frames, drop_unknown, drop_malformed;
	uint64_t drop_injected, corrupt_injected, dup_injected, reorder_injected;
	uint64_t drop_congestion, drop_link_down;
	uint64_t rx_injected;    /* frames put on this output by tg_switch_put_frame */
};

struct tg_switch {
	unsigned nports;
	unsigned fwd_latency;    /* cycles inside the switch after the last byte (default 0) */
	unsigned overhead;       /* preamble + SFD + IFG bytes per frame */
	unsigned tx_stall_pct;
	/* the ports play the NICs' MACs: the FCS is appended to each frame a
	 * NIC sends, and each frame is offered to its NIC without its FCS,
	 * rx_tuser set on the last beat of one whose FCS is wrong (or that is
	 * no longer than an FCS, offered whole); 0: frames pass as they are */
	int mac_fcs;
	/* faults, per million frames */
	uint32_t drop_ppm, flip_ppm, dup_ppm, reorder_ppm;
	unsigned reorder_depth;  /* a held frame lets this many frames pass, >= 1 */
	unsigned reorder_hold;   /* ... or is released after this many cycles */
	int pcap_ingress;        /* tap where frames enter the switch, not at the outputs */
	unsigned ps_per_cycle;
	FILE *pcap;
	/* pcap_keyed: each record is preceded by its place in the order one
	 * process writes them (struct tg_sw_pcap_key), so that the captures
	 * of the ranks of a split cluster merge into that order
	 * (tg_switch_pcap_merge); the file has no pcap header */
	int pcap_keyed;
	struct tg_sw_pcap_key {
		uint64_t cycle;
		uint32_t where;  /* phase << 16 | port */
		uint32_t sub;    /* records made in the same step */
		uint64_t seq;
	} key;
	uint64_t uplink_seq;
	struct tg_sw_port *port;
	/* frames for remote ports go here instead of their output port; the
	 * hook owns nothing (the frame is freed after it returns) */
	int (*send_remote)(void *arg, const struct tg_sw_frame *fr);
	void *remote_arg;
	int remote_err;          /* first error the hook returned */
	/* uplink (a bridge to a real interface): every frame queued on an
	 * output port, and every frame to an unknown MAC, is handed to it */
	void (*uplink_tx)(void *arg, const uint8_t *data, unsigned len);
	void *uplink_arg;
	struct tg_sw_fifo uplink_in;  /* frames from the uplink, by due cycle */
};

/* NULL + errno on failure.  pcap_path may be NULL.  Every port gets the
 * given bandwidth and latency; faults are off and buffers unlimited. */
struct tg_switch *tg_switch_create(unsigned nports, unsigned bytes_per_cycle, unsigned latency,
				   unsigned overhead, unsigned tx_stall_pct, unsigned ps_per_cycle,
				   uint64_t seed, const char *pcap_path);
void tg_switch_destroy(struct tg_switch *sw);

/* Bandwidth (1..64 bytes per cycle) and latency of port p's cable from
 * now on; frames already on it keep their timing.  0 or -EINVAL. */
int tg_switch_set_link(struct tg_switch *sw, unsigned p, unsigned latency, unsigned bpc);

/* Take port p's link down (frames to and from it are lost) or up. */
void tg_switch_set_down(struct tg_switch *sw, unsigned p, int down);

/* Schedule an outage of port p for cycles [from, to).  0, -EINVAL or -ENOMEM. */
int tg_switch_schedule_down(struct tg_switch *sw, unsigned p, uint64_t from, uint64_t to);

/* Whether port p's link is down in cycle `now`. */
int tg_switch_is_down(const struct tg_switch *sw, unsigned p, uint64_t now);

/* Queue a whole frame (FCS included, len 1..TG_SW_MAX_FRAME bytes) on
 * port p's output behind the frames already there, as if the switch had
 * forwarded it: no fault or buffer limit applies (an outage of port p
 * loses it as it loses any queued frame).  0, -EINVAL or -ENOMEM. */
int tg_switch_put_frame(struct tg_switch *sw, unsigned p, uint64_t now, const uint8_t *data,
			unsigned len);

/* The NIC inputs of port p for cycle `now` (rx_tuser may be NULL). */
void tg_switch_outputs(struct tg_switch *sw, unsigned p, uint64_t now, uint8_t *tx_tready,
		       uint8_t *rx_tvalid, uint64_t *rx_tdata, uint8_t *rx_tkeep,
		       uint8_t *rx_tlast, uint8_t *rx_tuser);

/* A TX beat of port p fired in cycle `now`.  Returns 0, or -1 if tkeep
 * breaks the stream rules (the beat is still taken). */
int tg_switch_tx_beat(struct tg_switch *sw, unsigned p, uint64_t now, uint64_t tdata,
		      uint8_t tkeep, int tlast);

/* The RX beat offered on port p fired. */
void tg_switch_rx_fire(struct tg_switch *sw, unsigned p);

/* End of cycle `now`: frames that have crossed their cable enter the switch
 * and are queued on their output port; held frames due are released;
 * queued frames of a port whose link is down are lost. */
void tg_switch_advance(struct tg_switch *sw, uint64_t now);

/* No frame anywhere in the switch: none arriving from a NIC, in transit,
 * queued, held back or waiting on the uplink.  Then only its TX-stall draws
 * change from one cycle to the next (tg_switch_skip_draws). */
int tg_switch_idle(const struct tg_switch *sw);

/* The random draws for TX stalls that tg_switch_outputs would make on
 * every port of this process in cycles [from, from + n), made without the
 * cycles (fast-forward; the switch is idle). */
void tg_switch_skip_draws(struct tg_switch *sw, uint64_t from, uint64_t n);

/* A frame of remote port src to local port dst, reaching the switch's
 * output stage in cycle `due` (as tg_switch_advance(due) would have
 * queued it had src been local), with its number `seq` and whether it is
 * to be held back there (reorder).  Frames of one src come in order.
 * 0, -EINVAL or -ENOMEM. */
int tg_switch_inject(struct tg_switch *sw, unsigned src, unsigned dst, uint64_t due,
		     uint64_t seq, int reorder, const uint8_t *data, unsigned len);

/* Merge the keyed captures of the n ranks of a split cluster (each in
 * its rank's order, read from the start) into one pcap file, in the
 * order one process writes.  0 or -errno. */
int tg_switch_pcap_merge(FILE *const *in, unsigned n, FILE *out);

/* A frame from the uplink for port dst, in cycle `now`: it crosses dst's
 * cable and is queued on its output like any frame.  0, -EINVAL or
 * -ENOMEM. */
int tg_switch_uplink_rx(struct tg_switch *sw, unsigned dst, uint64_t now, const uint8_t *data,
			unsigned len);

#endif /* TG_SWITCH_H */
