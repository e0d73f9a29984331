/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Switch model: links with latency and bandwidth, forwarding by destination MAC, output buffers, faults, pcap output. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tg/tg_frame.h"
#include "tg/tg_hw.h"
#include "tg_rng.h"
#include "tg_switch.h"

#define PREAMBLE_BYTES  8u   /* preamble + SFD, before the first frame byte */

/*
 * Time on a link is counted in byte-times (cycle * bpc).  A frame occupies
 * its link for overhead + len byte-times: PREAMBLE_BYTES before its first
 * byte, the rest (inter-frame gap) after its last.  Byte k of a frame whose
 * first byte starts at byte-time d has fully arrived at the far end of the
 * cable in cycle ceil((d + k + 1) / bpc) + latency.
 */

static uint64_t cdiv(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

static void fifo_push(struct tg_sw_fifo *f, struct tg_sw_frame *fr)
{
	fr->next = NULL;
	if (f->tail)
		f->tail->next = fr;
	else
		f->head = fr;
	f->tail = fr;
}

static struct tg_sw_frame *fifo_pop(struct tg_sw_fifo *f)
{
	struct tg_sw_frame *fr = f->head;

	if (fr) {
		f->head = fr->next;
		if (!f->head)
			f->tail = NULL;
	}
	return fr;
}

static void fifo_free(struct tg_sw_fifo *f)
{
	struct tg_sw_frame *fr;

	while ((fr = fifo_pop(f)))
		free(fr);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void pcap_header(FILE *f)
{
	uint8_t h[24];

	put_le32(h, 0xa1b23c4du);         /* classic pcap, nanosecond timestamps */
	h[4] = 2; h[5] = 0; h[6] = 4; h[7] = 0;   /* version 2.4 */
	put_le32(h + 8, 0);               /* thiszone */
	put_le32(h + 12, 0);              /* sigfigs */
	put_le32(h + 16, 65535);          /* snaplen */
	put_le32(h + 20, 1);              /* LINKTYPE_ETHERNET */
	fwrite(h, 1, sizeof(h), f);
}

/* The capture's order: records of one cycle by phase (frames put on an
 * output by tg_switch_put_frame, frames entering the switch, frames from
 * the uplink, frames reaching their output by source port and number,
 * held frames released), then port, number and step. */
enum { KEY_PUT = 0, KEY_INGRESS = 1, KEY_UPLINK = 2, KEY_TRANSIT = 3, KEY_RELEASE = 4 };

static void set_key(struct tg_switch *sw, unsigned phase, unsigned port, uint64_t seq)
{
	sw->key.where = phase << 16 | port;
	sw->key.seq = seq;
	sw->key.sub = 0;
}

static void pcap_record(struct tg_switch *sw, uint64_t cycle, const uint8_t *data, unsigned len)
{
	uint64_t ns = cycle * sw->ps_per_cycle / 1000u;
	uint8_t h[16];

	if (sw->pcap_keyed) {
		sw->key.cycle = cycle;
		fwrite(&sw->key, sizeof(sw->key), 1, sw->pcap);
		sw->key.sub++;
	}
	put_le32(h, (uint32_t)(ns / 1000000000u));
	put_le32(h + 4, (uint32_t)(ns % 1000000000u));
	put_le32(h + 8, len);
	put_le32(h + 12, len);
	fwrite(h, 1, sizeof(h), sw->pcap);
	fwrite(data, 1, len, sw->pcap);
	/* readable while the simulator runs (tcpdump -r on a live capture) */
	if (!sw->pcap_keyed)
		fflush(sw->pcap);
}

struct tg_switch *tg_switch_create(unsigned nports, unsigned bytes_per_cycle, unsigned latency,
				   unsigned overhead, unsigned tx_stall_pct, unsigned ps_per_cycle,
				   uint64_t seed, const char *pcap_path)
{
	struct tg_switch *sw;

	if (!nports || !bytes_per_cycle || bytes_per_cycle > 64 || overhead < PREAMBLE_BYTES ||
	    tx_stall_pct > 99) {
		errno = EINVAL;
		return NULL;
	}
	sw = calloc(1, sizeof(*sw));
	if (!sw)
		return NULL;
	sw->port = calloc(nports, sizeof(*sw->port));
	if (!sw->port)
		goto err_sw;
	sw->nports = nports;
	for (unsigned p = 0; p < nports; p++) {
		sw->port[p].bpc = bytes_per_cycle;
		sw->port[p].latency = latency;
		/* streams of their own: fault rates do not change the TX stalls */
		sw->port[p].rng = tg_rng_seed(seed, p, 0);
		sw->port[p].fault_rng = tg_rng_seed(seed, p, 1);
	}
	sw->overhead = overhead;
	sw->tx_stall_pct = tx_stall_pct;
	sw->reorder_depth = 1;
	sw->reorder_hold = 2000;
	sw->ps_per_cycle = ps_per_cycle;
	if (pcap_path) {
		sw->pcap = fopen(pcap_path, "wb");
		if (!sw->pcap)
			goto err_port;
		pcap_header(sw->pcap);
	}
	return sw;

err_port:
	free(sw->port);
err_sw:
	free(sw);
	return NULL;
}

void tg_switch_destroy(struct tg_switch *sw)
{
	if (!sw)
		return;
	for (unsigned p = 0; p < sw->nports; p++) {
		fifo_free(&sw->port[p].transit);
		fifo_free(&sw->port[p].egress);
		fifo_free(&sw->port[p].held);
		free(sw->port[p].sched);
	}
	fifo_free(&sw->uplink_in);
	if (sw->pcap)
		fclose(sw->pcap);
	free(sw->port);
	free(sw);
}

/* A byte-time at `from` bytes per cycle, at `to` bytes per cycle. */
static uint64_t rescale(uint64_t b, unsigned from, unsigned to)
{
	return cdiv(b, from) * to;
}

int tg_switch_set_link(struct tg_switch *sw, unsigned p, unsigned latency, unsigned bpc)
{
	struct tg_sw_port *pt;
	unsigned old;

	if (!sw || p >= sw->nports || !bpc || bpc > 64 || latency > 1000000)
		return -EINVAL;
	pt = &sw->port[p];
	old = pt->bpc;
	pt->latency = latency;
	if (old == bpc)
		return 0;
	pt->bpc = bpc;
	pt->cursor_b = rescale(pt->cursor_b, old, bpc);
	pt->free_b = rescale(pt->free_b, old, bpc);
	pt->eg_free_b = rescale(pt->eg_free_b, old, bpc);
	for (struct tg_sw_frame *fr = pt->egress.head; fr; fr = fr->next)
		fr->data_b = rescale(fr->data_b, old, bpc);
	return 0;
}

void tg_switch_set_down(struct tg_switch *sw, unsigned p, int down)
{
	if (sw && p < sw->nports)
		sw->port[p].down = !!down;
}

int tg_switch_schedule_down(struct tg_switch *sw, unsigned p, uint64_t from, uint64_t to)
{
	struct tg_sw_port *pt;
	struct tg_sw_down *s;

	if (!sw || p >= sw->nports || to <= from)
		return -EINVAL;
	pt = &sw->port[p];
	s = realloc(pt->sched, (pt->nsched + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	s[pt->nsched++] = (struct tg_sw_down){ from, to };
	pt->sched = s;
	return 0;
}

static int sched_down(const struct tg_sw_port *pt, uint64_t now);

int tg_switch_is_down(const struct tg_switch *sw, unsigned p, uint64_t now)
{
	const struct tg_sw_port *pt = &sw->port[p];

	return pt->down || sched_down(pt, now);
}

/* Byte-time of the last byte of beat `beat` of fr, plus one. */
/* Bytes of fr its NIC is offered: all, or (mac_fcs) all but its FCS. */
static unsigned rx_len(const struct tg_switch *sw, const struct tg_sw_frame *fr)
{
	return sw->mac_fcs && fr->len > TG_FCS_BYTES ? fr->len - TG_FCS_BYTES : fr->len;
}

/* Byte-time at which the NIC may take beat `beat` of fr: when its last
 * byte has arrived, or for the last beat with mac_fcs, the whole frame. */
static uint64_t beat_end_b(const struct tg_switch *sw, const struct tg_sw_frame *fr,
			   unsigned beat)
{
	unsigned last = beat * 8u + 7u;

	if (last >= rx_len(sw, fr) - 1u)
		last = fr->len - 1;
	return fr->data_b + last + 1;
}

void tg_switch_outputs(struct tg_switch *sw, unsigned p, uint64_t now, uint8_t *tx_tready,
		       uint8_t *rx_tvalid, uint64_t *rx_tdata, uint8_t *rx_tkeep,
		       uint8_t *rx_tlast, uint8_t *rx_tuser)
{
	struct tg_sw_port *pt = &sw->port[p];
	struct tg_sw_frame *fr = pt->egress.head;
	uint64_t backlog_end = pt->in_frame ? pt->cursor_b : pt->free_b + PREAMBLE_BYTES;

	/* the MAC holds at most one beat beyond what the wire has sent */
	*tx_tready = backlog_end <= now * pt->bpc + 8u &&
		     !tg_rng_pct(&pt->rng, sw->tx_stall_pct);

	*rx_tvalid = 0;
	*rx_tdata = 0;
	*rx_tkeep = 0;
	*rx_tlast = 0;
	if (rx_tuser)
		*rx_tuser = 0;
	/* a frame not yet started on a dead link is never offered */
	if (fr && !pt->rx_beat && (pt->down || pt->nsched) && tg_switch_is_down(sw, p, now))
		return;
	if (fr && cdiv(beat_end_b(sw, fr, pt->rx_beat), pt->bpc) + pt->latency <= now) {
		unsigned len = rx_len(sw, fr), off = pt->rx_beat * 8u, n = len - off;
		uint64_t d = 0;

		if (n > 8)
			n = 8;
		for (unsigned i = 0; i < n; i++)
			d |= (uint64_t)fr->data[off + i] << (8 * i);
		*rx_tvalid = 1;
		*rx_tdata = d;
		*rx_tkeep = (uint8_t)((1u << n) - 1u);
		*rx_tlast = off + n == len;
		if (sw->mac_fcs && *rx_tlast) {
			if (!fr->fcs_state)
				fr->fcs_state = fr->len > TG_FCS_BYTES &&
						tg_crc32_update(0xFFFFFFFFu, fr->data, fr->len) ==
							TG_FCS_RESIDUE ? 1 : 2;
			if (rx_tuser)
				*rx_tuser = fr->fcs_state == 2;
		}
	}
}

void tg_switch_rx_fire(struct tg_switch *sw, unsigned p)
{
	struct tg_sw_port *pt = &sw->port[p];
	struct tg_sw_frame *fr = pt->egress.head;

	if (!fr)
		return;
	if (++pt->rx_beat * 8u >= rx_len(sw, fr)) {
		pt->buf_used -= fr->len;
		free(fifo_pop(&pt->egress));
		pt->rx_beat = 0;
		pt->rx_frames++;
	}
}

/* Destination node of a frame, or -1 if it is no node of this switch. */
static int dest_node(const struct tg_switch *sw, const uint8_t *d)
{
	unsigned node;

	if (d[0] != (uint8_t)(TG_MAC_OUI >> 16) || d[1] != (uint8_t)(TG_MAC_OUI >> 8) ||
	    d[2] != (uint8_t)TG_MAC_OUI || d[3] != 0)
		return -1;
	node = (unsigned)d[4] << 8 | d[5];
	return node < sw->nports ? (int)node : -1;
}

/* True with probability ppm per million. */
static int chance(uint64_t *rng, uint32_t ppm)
{
	return ppm && tg_rng_next(rng) % TG_SW_PPM < ppm;
}

/* Whether port p's link is down in `now` by its schedule (not set_down). */
static int sched_down(const struct tg_sw_port *pt, uint64_t now)
{
	for (unsigned i = 0; i < pt->nsched; i++)
		if (now >= pt->sched[i].from && now < pt->sched[i].to)
			return 1;
	return 0;
}

static struct tg_sw_frame *frame_new(const uint8_t *data, unsigned len, unsigned src,
				     unsigned dst)
{
	struct tg_sw_frame *fr = malloc(sizeof(*fr) + len);

	if (!fr)
		return NULL;
	memset(fr, 0, sizeof(*fr));
	memcpy(fr->data, data, len);
	fr->len = len;
	fr->src = src;
	fr->dst = dst;
	return fr;
}

static void frame_done(struct tg_switch *sw, unsigned p, uint64_t now)
{
	struct tg_sw_port *pt = &sw->port[p];
	struct tg_sw_frame *fr, *dup;
	int dst;

	pt->in_frame = 0;
	if (sw->mac_fcs) {
		/* the MAC appends the FCS, which takes its bytes on the wire */
		if (pt->len + TG_FCS_BYTES > TG_SW_MAX_FRAME) {
			pt->too_long = 1;
		} else {
			uint32_t fcs = ~tg_crc32_update(0xFFFFFFFFu, pt->buf, pt->len);

			for (unsigned i = 0; i < TG_FCS_BYTES; i++)
				pt->buf[pt->len++] = (uint8_t)(fcs >> (8 * i));
		}
		pt->cursor_b += TG_FCS_BYTES;
	}
	pt->free_b = pt->cursor_b + (sw->overhead - PREAMBLE_BYTES);
	if (pt->too_long || pt->len < TG_ETH_HDR_BYTES) {
		pt->drop_malformed++;
		return;
	}
	pt->tx_frames++;
	pt->tx_bytes += pt->len;
	if ((pt->down || pt->nsched) && tg_switch_is_down(sw, p, now)) {
		pt->drop_link_down++;   /* sent into a dead cable */
		return;
	}
	if (sw->pcap && sw->pcap_ingress) {
		set_key(sw, KEY_INGRESS, p, 0);
		pcap_record(sw, now, pt->buf, pt->len);
	}
	dst = dest_node(sw, pt->buf);
	if (dst < 0) {
		pt->drop_unknown++;
		if (sw->uplink_tx)
			sw->uplink_tx(sw->uplink_arg, pt->buf, pt->len);
		return;
	}
	/* faults on the way in, drawn from the sending port's stream in this
	 * order for every frame, wherever its output port is */
	if (chance(&pt->fault_rng, sw->drop_ppm)) {
		pt->drop_injected++;
		return;
	}
	fr = frame_new(pt->buf, pt->len, p, (unsigned)dst);
	if (!fr) {
		pt->drop_malformed++;
		return;
	}
	fr->seq = pt->tx_seq++;
	if (chance(&pt->fault_rng, sw->flip_ppm)) {
		uint64_t bit = tg_rng_next(&pt->fault_rng) % (8u * pt->len);

		fr->data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		pt->corrupt_injected++;
	}
	fr->due = cdiv(pt->cursor_b, pt->bpc) + pt->latency + sw->fwd_latency;
	dup = NULL;
	if (chance(&pt->fault_rng, sw->dup_ppm)) {
		dup = frame_new(fr->data, fr->len, p, (unsigned)dst);
		if (dup) {
			dup->due = fr->due;
			dup->seq = pt->tx_seq++;
			pt->dup_injected++;
		}
	}
	for (struct tg_sw_frame *f = fr; f; f = f == fr ? dup : NULL) {
		if (chance(&pt->fault_rng, sw->reorder_ppm)) {
			f->reorder = 1;
			pt->reorder_injected++;
		}
		/* an outage scheduled for when it reaches the output: lost on the
		 * cable (known here, so a split cluster counts it where one
		 * process does) */
		if (pt->nsched && sched_down(pt, f->due)) {
			pt->drop_link_down++;
			free(f);
			continue;
		}
		if (!sw->port[dst].remote) {
			fifo_push(&pt->transit, f);
			continue;
		}
		/* distributed: the output port lives in another rank */
		{
			int rc = sw->send_remote(sw->remote_arg, f);

			if (rc && !sw->remote_err)
				sw->remote_err = rc;
			free(f);
		}
	}
}

int tg_switch_tx_beat(struct tg_switch *sw, unsigned p, uint64_t now, uint64_t tdata,
		      uint8_t tkeep, int tlast)
{
	struct tg_sw_port *pt = &sw->port[p];
	uint64_t t_b = now * pt->bpc;
	unsigned n = 0;
	int bad = 0;

	/* tkeep: all ones, or on the last beat a run of ones from bit 0 */
	while (n < 8 && (tkeep >> n) & 1u)
		n++;
	if ((tkeep >> n) != 0 || n == 0 || (!tlast && n != 8))
		bad = -1;
	if (!pt->in_frame) {
		pt->in_frame = 1;
		pt->len = 0;
		pt->too_long = 0;
		pt->cursor_b = (pt->free_b > t_b ? pt->free_b : t_b) + PREAMBLE_BYTES;
	} else if (pt->cursor_b < t_b) {
		pt->cursor_b = t_b;       /* the NIC paused mid-frame */
	}
	for (unsigned i = 0; i < n; i++) {
		if (pt->len < TG_SW_MAX_FRAME)
			pt->buf[pt->len++] = (uint8_t)(tdata >> (8 * i));
		else
			pt->too_long = 1;
	}
	pt->cursor_b += n;
	if (tlast)
		frame_done(sw, p, now);
	return bad;
}

/* Put fr on its output's wire schedule (and in the capture). */
static void out_append(struct tg_switch *sw, struct tg_sw_frame *fr, uint64_t now)
{
	struct tg_sw_port *out = &sw->port[fr->dst];
	uint64_t start = now * out->bpc;

	if (out->eg_free_b > start)
		start = out->eg_free_b;
	fr->data_b = start + PREAMBLE_BYTES;
	out->eg_free_b = start + fr->len + sw->overhead;
	if (sw->pcap && !sw->pcap_ingress)
		pcap_record(sw, now, fr->data, fr->len);
	if (sw->uplink_tx && !fr->uplink)
		sw->uplink_tx(sw->uplink_arg, fr->data, fr->len);
	fifo_push(&out->egress, fr);
}

int tg_switch_put_frame(struct tg_switch *sw, unsigned p, uint64_t now, const uint8_t *data,
			unsigned len)
{
	struct tg_sw_frame *fr;

	if (!sw || p >= sw->nports || !data || !len || len > TG_SW_MAX_FRAME)
		return -EINVAL;
	fr = frame_new(data, len, p, p);
	if (!fr)
		return -ENOMEM;
	sw->port[p].buf_used += len;
	sw->port[p].rx_injected++;
	set_key(sw, KEY_PUT, p, sw->port[p].put_seq++);
	out_append(sw, fr, now);
	return 0;
}

/* A frame reaches its output port. */
static void out_accept(struct tg_switch *sw, struct tg_sw_frame *fr, uint64_t now)
{
	struct tg_sw_port *out = &sw->port[fr->dst], *in = &sw->port[fr->src];
	struct tg_sw_frame *h, *prev, *next;

	/* (an outage of the source scheduled for now lost it at the source) */
	if (in->down) {
		in->drop_link_down++;
		free(fr);
		return;
	}
	if ((out->down || out->nsched) && tg_switch_is_down(sw, fr->dst, now)) {
		out->drop_link_down++;
		free(fr);
		return;
	}
	if (out->buf_bytes && out->buf_used + fr->len > out->buf_bytes) {
		out->drop_congestion++;
		free(fr);
		return;
	}
	out->buf_used += fr->len;
	if (fr->reorder) {
		fr->hold = sw->reorder_depth;
		fr->due = now + sw->reorder_hold;
		fifo_push(&out->held, fr);
		return;
	}
	out_append(sw, fr, now);
	/* held frames let this one pass; those that have waited enough follow it */
	prev = NULL;
	for (h = out->held.head; h; h = next) {
		next = h->next;
		if (--h->hold) {
			prev = h;
			continue;
		}
		if (prev)
			prev->next = next;
		else
			out->held.head = next;
		if (out->held.tail == h)
			out->held.tail = prev;
		out_append(sw, h, now);
	}
}

/* Release held frames of port p whose time is up; lose queued frames if
 * its link is down. */
static void out_service(struct tg_switch *sw, unsigned p, uint64_t now)
{
	struct tg_sw_port *out = &sw->port[p];
	struct tg_sw_fifo keep = { NULL, NULL };
	struct tg_sw_frame *fr;
	int down = (out->down || out->nsched) && tg_switch_is_down(sw, p, now);

	set_key(sw, KEY_RELEASE, p, 0);
	while (out->held.head && (down || out->held.head->due <= now)) {
		fr = fifo_pop(&out->held);
		if (down) {
			out->buf_used -= fr->len;
			out->drop_link_down++;
			free(fr);
		} else {
			out_append(sw, fr, now);
		}
	}
	if (!down || !out->egress.head)
		return;
	/* a frame the NIC has started to take is finished */
	if (out->rx_beat)
		fifo_push(&keep, fifo_pop(&out->egress));
	while ((fr = fifo_pop(&out->egress))) {
		out->buf_used -= fr->len;
		out->drop_link_down++;
		free(fr);
	}
	out->egress = keep;
}

int tg_switch_idle(const struct tg_switch *sw)
{
	if (sw->uplink_in.head)
		return 0;
	for (unsigned p = 0; p < sw->nports; p++) {
		const struct tg_sw_port *pt = &sw->port[p];

		if (pt->in_frame || pt->transit.head || pt->egress.head || pt->held.head)
			return 0;
	}
	return 1;
}

void tg_switch_skip_draws(struct tg_switch *sw, uint64_t from, uint64_t n)
{
	if (!sw->tx_stall_pct)
		return;
	for (unsigned p = 0; p < sw->nports; p++) {
		const struct tg_sw_port *pt = &sw->port[p];
		/* tg_switch_outputs draws once the wire has room (idle: no
		 * frame coming in, the backlog ends where the last one did) */
		uint64_t end = pt->free_b + PREAMBLE_BYTES, first = from;

		if (pt->remote)
			continue;
		if (end > 8u && cdiv(end - 8u, pt->bpc) > first)
			first = cdiv(end - 8u, pt->bpc);
		if (first < from + n)
			tg_rng_skip(&sw->port[p].rng, from + n - first);
	}
}

void tg_switch_advance(struct tg_switch *sw, uint64_t now)
{
	while (sw->uplink_in.head && sw->uplink_in.head->due <= now) {
		set_key(sw, KEY_UPLINK, 0, sw->uplink_seq++);
		out_accept(sw, fifo_pop(&sw->uplink_in), now);
	}
	for (unsigned p = 0; p < sw->nports; p++) {
		struct tg_sw_fifo *tr = &sw->port[p].transit;

		while (tr->head && tr->head->due <= now) {
			set_key(sw, KEY_TRANSIT, p, tr->head->seq);
			out_accept(sw, fifo_pop(tr), now);
		}
	}
	for (unsigned p = 0; p < sw->nports; p++) {
		struct tg_sw_port *pt = &sw->port[p];

		if (pt->held.head || ((pt->down || pt->nsched) && pt->egress.head))
			out_service(sw, p, now);
	}
}

int tg_switch_inject(struct tg_switch *sw, unsigned src, unsigned dst, uint64_t due,
		     uint64_t seq, int reorder, const uint8_t *data, unsigned len)
{
	struct tg_sw_frame *fr;

	/* (its destination MAC may be a flipped bit away from dst's) */
	if (src >= sw->nports || dst >= sw->nports || sw->port[dst].remote ||
	    !sw->port[src].remote || len < TG_ETH_HDR_BYTES || len > TG_SW_MAX_FRAME)
		return -EINVAL;
	fr = frame_new(data, len, src, dst);
	if (!fr)
		return -ENOMEM;
	fr->due = due;
	fr->seq = seq;
	fr->reorder = reorder != 0;
	fifo_push(&sw->port[src].transit, fr);
	return 0;
}

int tg_switch_uplink_rx(struct tg_switch *sw, unsigned dst, uint64_t now, const uint8_t *data,
			unsigned len)
{
	struct tg_sw_frame *fr;

	if (dst >= sw->nports || sw->port[dst].remote || len < TG_ETH_HDR_BYTES ||
	    len > TG_SW_MAX_FRAME || dest_node(sw, data) != (int)dst)
		return -EINVAL;
	/* counted and checked as if its own port had sent it */
	fr = frame_new(data, len, dst, dst);
	if (!fr)
		return -ENOMEM;
	fr->uplink = 1;
	fr->due = now + sw->port[dst].latency + sw->fwd_latency;
	fifo_push(&sw->uplink_in, fr);
	return 0;
}

/* One keyed record of a rank's capture. */
struct keyed {
	struct tg_sw_pcap_key key;
	uint8_t hdr[16];
	uint32_t len;
	uint8_t data[TG_SW_MAX_FRAME];
	int have;
};

static int keyed_next(FILE *f, struct keyed *k)
{
	k->have = 0;
	if (fread(&k->key, sizeof(k->key), 1, f) != 1)
		return feof(f) ? 0 : -EIO;
	if (fread(k->hdr, sizeof(k->hdr), 1, f) != 1)
		return -EIO;
	k->len = (uint32_t)k->hdr[8] | (uint32_t)k->hdr[9] << 8 | (uint32_t)k->hdr[10] << 16 |
		 (uint32_t)k->hdr[11] << 24;
	if (k->len > TG_SW_MAX_FRAME || fread(k->data, 1, k->len, f) != k->len)
		return -EIO;
	k->have = 1;
	return 0;
}

static int key_before(const struct tg_sw_pcap_key *a, const struct tg_sw_pcap_key *b)
{
	if (a->cycle != b->cycle)
		return a->cycle < b->cycle;
	if (a->where != b->where)
		return a->where < b->where;
	if (a->seq != b->seq)
		return a->seq < b->seq;
	return a->sub < b->sub;
}

int tg_switch_pcap_merge(FILE *const *in, unsigned n, FILE *out)
{
	struct keyed *k = calloc(n, sizeof(*k));
	int rc = 0;

	if (!k)
		return -ENOMEM;
	pcap_header(out);
	for (unsigned i = 0; i < n && !rc; i++)
		rc = keyed_next(in[i], &k[i]);
	while (!rc) {
		unsigned best = n;

		for (unsigned i = 0; i < n; i++)
			if (k[i].have && (best == n || key_before(&k[i].key, &k[best].key)))
				best = i;
		if (best == n)
			break;
		if (fwrite(k[best].hdr, sizeof(k[best].hdr), 1, out) != 1 ||
		    fwrite(k[best].data, 1, k[best].len, out) != k[best].len)
			rc = -EIO;
		else
			rc = keyed_next(in[best], &k[best]);
	}
	free(k);
	if (!rc && fflush(out))
		rc = -errno;
	return rc;
}
