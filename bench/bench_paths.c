/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* tg-bench: one notification done three ways (remote enqueue, software queue, write + flag), and throughput into one node against the wire's limit. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tg/tg_barrier.h"
#include "tg_bench.h"
#include "tg_swq.h"

/* how long the senders' REQs may take to finish at the end: far past any
 * answer, short of a hang */
#define ENQ_WAIT_NS 10000000000ull

#define WORDS        2u        /* entry: sender << 32 | index, cycle it was issued */
#define HWQ_LOG2     20u       /* remote-enqueue buffer: 1 MiB, never fills here */
#define HWQ_ENTRY    (8u * WORDS)
#define SWQ_NSLOTS   64u       /* software queue ring */
#define FLAG_SLOTS   16u       /* write + flag: slots per sender ring */
#define WINDOW       16u       /* entries a sender may have issued and not yet taken */
#define STALL        2000000u  /* cycles without progress: give up */
#define MAX_SENDERS  15u

/* ------------------------------------------------------------ the paths */

/* One way to notify the receiver (the last node) of an entry. */
struct path {
	const char *name, *key;
	/* issue w from sender s: 0 taken, -EBUSY not now */
	int (*send)(struct path *p, unsigned s, const uint64_t *w);
	/* let sender s go on */
	int (*poll)(struct path *p, unsigned s);
	/* the receiving program takes one entry: 0, -EAGAIN */
	int (*recv)(struct path *p, uint64_t *w);
	struct bench_cluster *c;
	unsigned senders, rcv;
	/* remote enqueue */
	struct tg_queue *hwq;
	uint64_t hwq_pa;
	/* software queue */
	struct swq *swq;
	struct swq_prod *prod[MAX_SENDERS];
	/* write + flag: receiver rings, credits in each sender's memory */
	struct tg_mr *ring, *credit[MAX_SENDERS];
	uint64_t sent[MAX_SENDERS], head[MAX_SENDERS];
	unsigned rr;
};

static int hw_send(struct path *p, unsigned s, const uint64_t *w)
{
	return tg_enq_multi(p->c->dev[s], p->rcv, p->hwq_pa, w, WORDS);
}

static int hw_recv(struct path *p, uint64_t *w)
{
	/* the entry is exactly the WORDS words */
	return tg_deq(p->hwq, w, 8u * WORDS);
}

static int no_poll(struct path *p, unsigned s)
{
	(void)p;
	(void)s;
	return 0;
}

static int swq_send(struct path *p, unsigned s, const uint64_t *w)
{
	int rc;

	if (p->prod[s]->state != SWQ__IDLE)
		return -EBUSY;
	rc = swq_enq_start(p->prod[s], w);
	return rc == -EAGAIN ? 0 : rc;
}

static int swq_poll(struct path *p, unsigned s)
{
	int rc = swq_enq_poll(p->prod[s]);

	return rc == -EAGAIN ? 0 : rc;
}

static int swq_recv(struct path *p, uint64_t *w)
{
	return swq_deq(p->swq, w);
}

/* write + flag: sender s owns ring s of FLAG_SLOTS 64-byte slots in the
 * receiver's memory; word 0 of a slot is its flag (index + 1 of the
 * entry in it), the payload follows.  The receiver hands slots back by
 * writing how many it has taken into the sender's credit word. */
static uint64_t flag_slot(unsigned s, uint64_t i)
{
	return ((uint64_t)s * FLAG_SLOTS + (i % FLAG_SLOTS)) * 64u;
}

static int flag_send(struct path *p, unsigned s, const uint64_t *w)
{
	const uint8_t *credit = tg_mr_ptr(p->credit[s]);
	uint64_t pa = tg_mr_paddr(p->ring) + flag_slot(s, p->sent[s]), seq = p->sent[s] + 1;
	int rc;

	/* acquire: the receiver's write of the count is complete */
	if (p->sent[s] - TG_DEV_LOAD_ACQ64(credit) >= FLAG_SLOTS)
		return -EBUSY;
	/* one device, one node: the payload lands before the flag */
	rc = tg_write(p->c->dev[s], p->rcv, pa + 8, w, 8u * WORDS);
	if (!rc)
		rc = tg_write(p->c->dev[s], p->rcv, pa, &seq, 8);
	if (!rc)
		p->sent[s]++;
	return rc;
}

static int flag_recv(struct path *p, uint64_t *w)
{
	uint8_t *ring = tg_mr_ptr(p->ring);

	for (unsigned k = 0; k < p->senders; k++) {
		unsigned s = (p->rr + k) % p->senders;
		uint8_t *slot = ring + flag_slot(s, p->head[s]);

		/* acquire pairs with the memory's release of the NIC's write */
		if (TG_DEV_LOAD_ACQ64(slot) != p->head[s] + 1)
			continue;
		memcpy(w, slot + 8, 8u * WORDS);
		p->head[s]++;
		p->rr = s + 1;
		if (p->head[s] % (FLAG_SLOTS / 2) == 0)
			return tg_write(p->c->dev[p->rcv], s, tg_mr_paddr(p->credit[s]), &p->head[s], 8);
		return 0;
	}
	return -EAGAIN;
}

/* The three paths: name, CSV key, send, poll, receive. */
static const struct path path_kinds[3] = {
	{ .name = "remote enqueue (hardware)", .key = "hw_enqueue", .send = hw_send,
	  .poll = no_poll, .recv = hw_recv },
	{ .name = "software queue (fetch-and-add + writes)", .key = "swq", .send = swq_send,
	  .poll = swq_poll, .recv = swq_recv },
	{ .name = "remote write + polled flag per sender", .key = "write_flag", .send = flag_send,
	  .poll = no_poll, .recv = flag_recv },
};

static void path_setup(struct path *p, struct bench_cluster *c, unsigned senders, int kind)
{
	*p = path_kinds[kind];
	p->c = c;
	p->senders = senders;
	p->rcv = senders;
	if (kind == 0) {
		p->hwq = tg_queue_open(c->dev[p->rcv], HWQ_LOG2, HWQ_ENTRY);
		if (!p->hwq)
			die("tg_queue_open: %s", strerror(errno));
		p->hwq_pa = tg_queue_paddr(p->hwq);
	} else if (kind == 1) {
		p->swq = swq_create(c->dev[p->rcv], SWQ_NSLOTS, WORDS);
		if (!p->swq)
			die("swq_create: %s", strerror(errno));
		for (unsigned s = 0; s < senders; s++)
			if (!(p->prod[s] = swq_attach(c->dev[s], p->rcv, swq_paddr(p->swq))))
				die("swq_attach: %s", strerror(errno));
	} else {
		size_t len = (size_t)senders * FLAG_SLOTS * 64u;

		p->ring = tg_mr_alloc(c->dev[p->rcv], len, TG_ACCESS_ALL);
		if (!p->ring)
			die("tg_mr_alloc: %s", strerror(errno));
		memset(tg_mr_ptr(p->ring), 0, len);
		for (unsigned s = 0; s < senders; s++) {
			if (!(p->credit[s] = tg_mr_alloc(c->dev[s], 4096, TG_ACCESS_ALL)))
				die("tg_mr_alloc: %s", strerror(errno));
			memset(tg_mr_ptr(p->credit[s]), 0, 8);
		}
	}
}

static void path_free(struct path *p)
{
	tg_queue_close(p->hwq);
	for (unsigned s = 0; s < p->senders; s++) {
		swq_detach(p->prod[s]);
		tg_mr_free(p->credit[s]);
	}
	swq_destroy(p->swq);
	tg_mr_free(p->ring);
}

struct run_result {
	struct dist lat;        /* issue -> taken by the receiving program, cycles */
	uint64_t cycles, n;
	double per_kcycle;      /* entries per 1000 cycles */
};

/*
 * Every sender issues m entries, each with at most `window` issued and
 * not yet taken (window 1 with `one` set: one entry in the whole system
 * at a time, senders in turn).  The receiver takes entries as they come
 * and checks each sender's arrive once and in order.  One simulated
 * cycle passes per round in which nothing happened.
 */
static void run(struct path *p, unsigned m, unsigned window, int one, struct run_result *r)
{
	struct tg_sim *sim = p->c->sim;
	uint64_t total = (uint64_t)m * p->senders, got = 0, c0, last;
	uint64_t *lat = calloc(total, sizeof(uint64_t));
	unsigned sent[MAX_SENDERS] = { 0 }, next[MAX_SENDERS] = { 0 }, turn = 0;

	if (!lat)
		die("out of memory");
	c0 = last = tg_sim_cycles(sim);
	while (got < total) {
		int progress = 0, rc;
		uint64_t w[WORDS];

		for (unsigned s = 0; s < p->senders; s++) {
			if ((rc = p->poll(p, s)))
				die("%s: sender %u: %s", p->name, s, tg_strerror(rc));
			if (sent[s] == m || sent[s] - next[s] >= window)
				continue;
			if (one && (s != turn % p->senders || got != turn))
				continue;
			w[0] = (uint64_t)s << 32 | sent[s];
			w[1] = tg_sim_cycles(sim);
			rc = p->send(p, s, w);
			if (rc == -EBUSY)
				continue;
			if (rc)
				die("%s: send: %s", p->name, tg_strerror(rc));
			sent[s]++;
			turn += one;
			progress = 1;
		}
		while ((rc = p->recv(p, w)) == 0) {
			unsigned s = (unsigned)(w[0] >> 32), i = (unsigned)w[0];

			if (s >= p->senders || i != next[s])
				die("%s: entry %#" PRIx64 " out of order (sender %u expects %u)", p->name,
				    w[0], s, s < p->senders ? next[s] : 0);
			next[s]++;
			lat[got++] = tg_sim_cycles(sim) - w[1];
			progress = 1;
		}
		if (rc != -EAGAIN)
			die("%s: receive: %s", p->name, tg_strerror(rc));
		if (progress) {
			last = tg_sim_cycles(sim);
			continue;
		}
		if (tg_sim_cycles(sim) - last > STALL)
			die("%s: no progress for %u cycles (%" PRIu64 " of %" PRIu64 " entries)", p->name,
			    STALL, got, total);
		tg_sim_step(sim, 1);
	}
	r->cycles = tg_sim_cycles(sim) - c0;
	r->n = total;
	r->per_kcycle = 1000.0 * (double)total / (double)r->cycles;
	r->lat = dist_of(lat, total);
	free(lat);
}

/* --------------------------------------------- 2: three ways to notify */

int bench_compare(const struct bench_opts *o)
{
	static const unsigned sender_counts[] = { 1, 4, 15 };
	unsigned lat_m = o->ops / 50 < 20 ? 20 : o->ops / 50;   /* one at a time, in total */
	unsigned load_total = o->ops / 4 < 150 ? 150 : o->ops / 4;
	struct run_result one[3][3], load[3][3];
	const char *names[3] = { 0 }, *keys[3] = { 0 };
	FILE *f;

	printf("\n== 2. One notification, three ways, on the same simulated NICs: senders -> the last\n"
	       "   node; latency = sender issues -> receiving program has the entry (cycles)\n");
	for (unsigned k = 0; k < 3; k++) {
		unsigned S = sender_counts[k];
		struct bench_cluster c;

		cluster_open(&c, o, S + 1);
		for (int w = 0; w < 3; w++) {
			struct path p;
			unsigned m1 = (lat_m + S - 1) / S, ml = (load_total + S - 1) / S;

			path_setup(&p, &c, S, w);
			names[w] = p.name;
			keys[w] = p.key;
			run(&p, m1, 1, 1, &one[k][w]);
			run(&p, ml, WINDOW, 0, &load[k][w]);
			for (unsigned s = 0; s < S; s++) {
				int st = tg_ctx_status(c.dev[s]);

				if (!st)
					st = tg_enq_wait(c.dev[s], ENQ_WAIT_NS, NULL);
				if (st)
					die("%s: sender %u: %s", p.name, s, tg_dev_error(c.dev[s]));
			}
			path_free(&p);
		}
		cluster_close(&c);
	}
	f = out_file(o, "compare.csv");
	fprintf(f, "method,senders,latency_one_median,latency_one_p99,latency_loaded_median,"
		"latency_loaded_p99,entries_per_kcycle,latency_ratio_to_enqueue,"
		"throughput_ratio_to_enqueue\n");
	printf("  %-40s %3s %8s %8s %9s %9s %9s %8s %8s\n", "method", "snd", "lat med", "lat p99",
	       "load med", "load p99", "per 1k cy", "lat/enq", "thr/enq");
	for (unsigned w = 0; w < 3; w++)
		for (unsigned k = 0; k < 3; k++) {
			struct run_result *a = &one[k][w], *l = &load[k][w];
			double lr = (double)a->lat.med / (double)one[k][0].lat.med;
			double tr = l->per_kcycle / load[k][0].per_kcycle;

			printf("  %-40s %3u %8" PRIu64 " %8" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9.2f %7.2fx"
			       " %7.2fx\n", names[w], sender_counts[k], a->lat.med, a->lat.p99, l->lat.med,
			       l->lat.p99, l->per_kcycle, lr, tr);
			fprintf(f, "%s,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.3f,%.3f,%.3f\n",
				keys[w], sender_counts[k], a->lat.med, a->lat.p99, l->lat.med, l->lat.p99,
				l->per_kcycle, lr, tr);
		}
	fclose(f);
	printf("  lat: one entry in the system at a time (%u entries, senders in turn); load: every\n"
	       "  sender busy (%u entries in all; up to %u issued and not yet taken per sender for\n"
	       "  the enqueue and flag paths, 1 for the software queue, whose producer API runs one\n"
	       "  enqueue at a time), so loaded latency includes queueing.  thr: entries per 1000\n"
	       "  cycles under load.  Ratios are to remote enqueue with the same senders.\n"
	       "  software queue: fetch-and-increment of the tail, fetch of the slot's sequence, two\n"
	       "  writes (examples/tg_swq.h, ring of %u slots); write + flag: payload write, then a\n"
	       "  flag write into a %u-slot ring per sender, credits written back every %u entries.\n",
	       lat_m, load_total, WINDOW, SWQ_NSLOTS, FLAG_SLOTS, FLAG_SLOTS / 2);
	f = out_file(o, "compare.gp");
	fprintf(f, "set terminal svg size 820,420 noenhanced font 'sans,12'\nset output 'compare.svg'\n"
		"set multiplot layout 1,2 title 'Notification three ways (%u B/cycle)'\n"
		"set datafile separator ','\nset grid\nset key top left font ',10'\n"
		"set xlabel 'senders'\nset xtics (1, 4, 15)\n"
		"set ylabel 'median latency, one at a time (cycles)'\n"
		"plot for [m in 'hw_enqueue swq write_flag'] 'compare.csv' skip 1 "
		"using (strcol(1) eq m ? $2 : 1/0):3 with linespoints lw 2 title m\n"
		"set ylabel 'entries per 1000 cycles, loaded'\n"
		"plot for [m in 'hw_enqueue swq write_flag'] 'compare.csv' skip 1 "
		"using (strcol(1) eq m ? $2 : 1/0):7 with linespoints lw 2 title m\n"
		"unset multiplot\n", o->bpc);
	fclose(f);
	plot(o, "compare.gp", "compare.svg");
	return 0;
}

/* ------------------------------------------------------ 3: throughput */

enum { T_REQ, T_W8, T_W16, T_W32, T_W64, T_FAA, T_N };

/* Each sender issues m operations of one kind to the receiver (the last
 * node) as fast as the NIC takes them; returns the cycles until every
 * one is complete.  REQs are taken by the receiving program as they
 * come; writes end with a fence per sender; fetch-and-adds run 8 deep
 * (non-blocking) per sender and each result is checked. */
static uint64_t flood(struct bench_cluster *c, unsigned S, int kind, unsigned m)
{
	static const unsigned wlen[T_N] = { 0, 8, 16, 32, 64, 0 };
	struct tg_sim *sim = c->sim;
	struct tg_dev *r = c->dev[S];
	unsigned sent[MAX_SENDERS] = { 0 }, done[MAX_SENDERS] = { 0 };
	uint64_t total = (uint64_t)m * S, got = 0, c0 = tg_sim_cycles(sim), last = c0;
	struct tg_queue *q = NULL;
	struct tg_mr *dst = tg_mr_alloc(r, 4096, TG_ACCESS_ALL), *rec[MAX_SENDERS] = { 0 };
	uint8_t blk[64];
	int rc;

	if (!dst)
		die("tg_mr_alloc: %s", strerror(errno));
	memset(tg_mr_ptr(dst), 0, 4096);
	memset(blk, 0xa5, sizeof(blk));
	if (kind == T_REQ && !(q = tg_queue_open(r, HWQ_LOG2, 8)))
		die("tg_queue_open: %s", strerror(errno));
	for (unsigned s = 0; s < S && kind == T_FAA; s++)
		if (!(rec[s] = tg_mr_alloc(c->dev[s], 4096, TG_ACCESS_ALL)))
			die("tg_mr_alloc: %s", strerror(errno));
	c0 = last = tg_sim_cycles(sim);
	while (got < total) {
		int progress = 0;

		for (unsigned s = 0; s < S; s++) {
			struct tg_dev *d = c->dev[s];
			uint64_t pa = tg_mr_paddr(dst) + 64u * s, v;

			switch (kind) {
			case T_REQ:
				if (sent[s] == m || sent[s] - done[s] >= 4 * WINDOW)
					break;
				if ((rc = tg_enq(d, S, tg_queue_paddr(q), (uint64_t)s << 32 | sent[s])))
					die("tg_enq: %s", tg_strerror(rc));
				sent[s]++;
				progress = 1;
				break;
			case T_FAA:
				if (done[s] < sent[s] &&
				    (rc = tg_atomic_test(d, rec[s], 16u * (done[s] % 8), &v)) != -EAGAIN) {
					if (rc || v != done[s])
						die("fetch-and-add: %s, old %" PRIu64 " want %u",
						    tg_strerror(rc), v, done[s]);
					done[s]++;
					got++;
					progress = 1;
				}
				if (sent[s] == m || sent[s] - done[s] >= 8)
					break;
				if ((rc = tg_atomic_post(d, S, pa, TG_AOP_FAA, 1, 0, rec[s],
							 16u * (sent[s] % 8))))
					die("tg_atomic_post: %s", tg_strerror(rc));
				sent[s]++;
				progress = 1;
				break;
			default:
				if (sent[s] == m)
					break;
				if ((rc = tg_write(d, S, pa, blk, wlen[kind])))
					die("tg_write: %s", tg_strerror(rc));
				sent[s]++;
				progress = 1;
				break;
			}
		}
		if (kind == T_REQ) {
			uint64_t e;

			while ((rc = tg_deq(q, &e, 8)) == 0) {
				unsigned s = (unsigned)(e >> 32);

				if (s >= S || (uint32_t)e != done[s])
					die("REQ %#" PRIx64 " out of order", e);
				done[s]++;
				got++;
				progress = 1;
			}
			if (rc != -EAGAIN)
				die("tg_deq: %s", tg_strerror(rc));
		} else if (kind != T_FAA) {
			got = 0;
			for (unsigned s = 0; s < S; s++)
				got += sent[s];
			if (got == total) {
				/* complete once every sender's writes are in memory */
				for (unsigned s = 0; s < S; s++)
					if ((rc = tg_fence(c->dev[s], S)))
						die("tg_fence: %s", tg_strerror(rc));
			}
		}
		if (progress) {
			last = tg_sim_cycles(sim);
			continue;
		}
		if (tg_sim_cycles(sim) - last > STALL)
			die("throughput run stalled");
		tg_sim_step(sim, 1);
	}
	last = tg_sim_cycles(sim) - c0;
	for (unsigned s = 0; s < S; s++)
		tg_mr_free(rec[s]);
	tg_queue_close(q);
	tg_mr_free(dst);
	return last;
}

int bench_throughput(const struct bench_opts *o)
{
	static const unsigned sender_counts[] = { 1, 2, 4, 8, 15 };
	static const char *names[T_N] = { "REQ (8-byte entry)", "write 8 B", "write 16 B",
					  "write 32 B", "write 64 B", "fetch-and-add" };
	static const char *keys[T_N] = { "req", "write8", "write16", "write32", "write64", "faa" };
	enum { NSC = sizeof(sender_counts) / sizeof(sender_counts[0]) };
	unsigned per_run = o->ops / 5 < 200 ? 200 : o->ops / 5;
	double rate[T_N][NSC], bound[T_N][NSC], wbytes[T_N][NSC];
	FILE *f;

	printf("\n== 3. Throughput into one node: operations per 1000 cycles, %u operations per run\n"
	       "   shared by the senders, against the limit of the receiver's link\n", per_run);
	for (unsigned k = 0; k < NSC; k++) {
		unsigned S = sender_counts[k], m = (per_run + S - 1) / S;
		struct bench_cluster c;

		cluster_open(&c, o, S + 1);
		for (int t = 0; t < T_N; t++) {
			struct tg_sim_stats a, b;
			uint64_t bytes = 0, frames = 0, cyc;

			for (unsigned s = 0; s < S; s++) {
				tg_sim_get_stats(c.sim, s, &a);
				bytes -= a.tx_bytes;
				frames -= a.tx_frames;
			}
			cyc = flood(&c, S, t, m);
			for (unsigned s = 0; s < S; s++) {
				tg_sim_get_stats(c.sim, s, &b);
				bytes += b.tx_bytes;
				frames += b.tx_frames;
			}
			/* every frame the senders sent crossed the receiver's
			 * link: the limit is that link's byte-times */
			wbytes[t][k] = (double)(bytes + frames * o->overhead) / ((double)m * S);
			rate[t][k] = 1000.0 * (double)m * S / (double)cyc;
			bound[t][k] = 1000.0 * o->bpc / wbytes[t][k];
		}
		cluster_close(&c);
	}
	f = out_file(o, "throughput.csv");
	fprintf(f, "kind,senders,ops_per_kcycle,wire_limit_per_kcycle,efficiency_pct,"
		"wire_bytes_per_op,mops_per_s\n");
	printf("  %-20s %5s", "operation", "frame");
	for (unsigned k = 0; k < NSC; k++)
		printf("  %2u snd     ", sender_counts[k]);
	printf(" %9s\n", "limit(15)");
	for (int t = 0; t < T_N; t++) {
		static const unsigned pay[T_N] = { 8, 8, 16, 32, 64, 16 };

		printf("  %-20s %5u", names[t], frame_bytes(pay[t]));
		for (unsigned k = 0; k < NSC; k++) {
			printf("  %5.2f %3.0f%%", rate[t][k], 100.0 * rate[t][k] / bound[t][k]);
			fprintf(f, "%s,%u,%.3f,%.3f,%.1f,%.1f,%.3f\n", keys[t], sender_counts[k], rate[t][k],
				bound[t][k], 100.0 * rate[t][k] / bound[t][k], wbytes[t][k],
				rate[t][k] * o->mhz / 1000.0);
		}
		printf(" %9.2f\n", bound[t][NSC - 1]);
	}
	fclose(f);
	printf("  each cell: operations per 1000 cycles and %% of the wire limit.  frame: bytes of\n"
	       "  the request frame by the format of tg_hw.h (38 header + payload, padded to 60,\n"
	       "  + 4 FCS; the fetch-and-add carries operand and compare); limit (shown for 15\n"
	       "  senders; each cell uses its own): 1000 x %u B/cycle / wire bytes per operation,\n"
	       "  where wire bytes = all frames the senders sent into the receiver's link (fences\n"
	       "  and link-layer frames included) + %u bytes of preamble and gap each.\n"
	       "  At %.2f MHz, 10 per 1000 cycles = %.2f M operations/s.\n",
	       o->bpc, o->overhead, o->mhz, 10.0 * o->mhz / 1000.0);
	f = out_file(o, "throughput.gp");
	fprintf(f, "set terminal svg size 820,460 noenhanced font 'sans,12'\nset output 'throughput.svg'\n"
		"set title 'Throughput into one node (%u B/cycle): measured (solid), wire limit (dashed)'\n"
		"set datafile separator ','\nset grid\nset key outside right font ',10'\n"
		"set xlabel 'senders'\nset ylabel 'operations per 1000 cycles'\n"
		"set xtics (1, 2, 4, 8, 15)\nset yrange [0:*]\n"
		"plot for [i=1:6] 'throughput.csv' skip 1 using (strcol(1) eq word('%s %s %s %s %s %s', i) ? "
		"$2 : 1/0):3 with linespoints lw 2 lc i title word('%s %s %s %s %s %s', i), "
		"for [i=1:6] 'throughput.csv' skip 1 using (strcol(1) eq word('%s %s %s %s %s %s', i) ? "
		"$2 : 1/0):4 with lines dt 2 lc i notitle\n", o->bpc,
		keys[0], keys[1], keys[2], keys[3], keys[4], keys[5],
		keys[0], keys[1], keys[2], keys[3], keys[4], keys[5],
		keys[0], keys[1], keys[2], keys[3], keys[4], keys[5]);
	fclose(f);
	plot(o, "throughput.gp", "throughput.svg");
	return 0;
}
