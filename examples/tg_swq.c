/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Demo: three senders feed one receiver through the software queue of tg_swq.h and through the NIC's remote enqueue; latency and throughput side by side. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tg/sim.h"
#include "tg/tg.h"
#include "tg_swq.h"

/* how long the senders' REQs may take to finish at the end: far past any
 * answer, short of a hang */
#define ENQ_WAIT_NS 10000000000ull

#define SENDERS      3u          /* nodes 0..2 */
#define RCV          3u
#define NODES        4u
#define WORDS        3u          /* sender|index, start cycle, check */
#define DEF_M        2500u       /* entries per sender in the loaded run */
#define DEF_NSLOTS   16u
#define LAT_RUNS     90u         /* entries sent one at a time */
#define HWQ_LOG2     12u         /* hardware queue buffer: 4 KiB */
#define HWQ_ENTRY    32u         /* its entry bytes: 3 words, zero-filled */
#define STALL_CYCLES 2000000u    /* no progress for this long: give up */

/* One way to move an entry from a sender to the receiver. */
struct path {
	const char *name;
	/* start sending (0 or -EAGAIN: accepted), -EBUSY: sender busy */
	int (*send)(struct path *p, unsigned s, const uint64_t *w);
	/* let sender s go on; 0 idle, -EAGAIN busy */
	int (*poll)(struct path *p, unsigned s);
	/* take one entry: 0, -EAGAIN */
	int (*recv)(struct path *p, uint64_t *w);
	struct swq *q;
	struct swq_prod *prod[SENDERS];
	struct tg_queue *hwq;
	struct tg_dev *snd[SENDERS];
	uint64_t hwq_pa;
};

struct result {
	uint64_t lat_med, cycles, n;
	double wall;
};

static struct tg_sim *sim;
static unsigned long errors;

static int swq_send(struct path *p, unsigned s, const uint64_t *w)
{
	if (p->prod[s]->state != SWQ__IDLE)
		return -EBUSY;
	return swq_enq_start(p->prod[s], w);
}

static int swq_poll(struct path *p, unsigned s)
{
	return swq_enq_poll(p->prod[s]);
}

static int swq_recv(struct path *p, uint64_t *w)
{
	return swq_deq(p->q, w);
}

static int hw_send(struct path *p, unsigned s, const uint64_t *w)
{
	return tg_enq_multi(p->snd[s], RCV, p->hwq_pa, w, WORDS);
}

static int hw_poll(struct path *p, unsigned s)
{
	(void)p;
	(void)s;
	return 0;
}

static int hw_recv(struct path *p, uint64_t *w)
{
	uint64_t e[HWQ_ENTRY / 8];
	int rc = tg_deq(p->hwq, e, sizeof(e));

	if (!rc)
		memcpy(w, e, 8u * WORDS);
	return rc;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t check_word(uint64_t w0, uint64_t w1)
{
	return ~w0 * 0x9e3779b97f4a7c15ULL ^ w1;
}

static void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void error(const char *fmt, ...)
{
	va_list ap;

	if (errors++ < 20) {
		va_start(ap, fmt);
		fprintf(stderr, "tg-swq-demo: ");
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		va_end(ap);
	}
}

/*
 * Every sender sends m entries, at most `window` of all of them sent and
 * not yet taken; the receiver takes them as they come and checks each
 * sender's entries arrive once and in order.  Senders are served in
 * turn, one simulated cycle per round in which nothing happened.
 */
static int run(struct path *p, unsigned m, unsigned window, struct result *r)
{
	uint64_t total = (uint64_t)m * SENDERS, got = 0, outstanding = 0, c0, last;
	uint64_t *lat = calloc(total, sizeof(uint64_t));
	unsigned sent[SENDERS] = { 0 }, next[SENDERS] = { 0 }, rot = 0;
	double t0 = now_s();
	int rc = 0;

	if (!lat)
		return -ENOMEM;
	c0 = last = tg_sim_cycles(sim);
	while (got < total) {
		int progress = 0;
		uint64_t w[WORDS];

		for (unsigned k = 0; k < SENDERS; k++) {
			unsigned s = (rot + k) % SENDERS;

			rc = p->poll(p, s);
			if (rc && rc != -EAGAIN)
				goto out;
			if (sent[s] == m || outstanding >= window)
				continue;
			w[0] = (uint64_t)s << 32 | sent[s];
			w[1] = tg_sim_cycles(sim);
			w[2] = check_word(w[0], w[1]);
			rc = p->send(p, s, w);
			if (rc == -EBUSY)
				continue;
			if (rc && rc != -EAGAIN)
				goto out;
			sent[s]++;
			outstanding++;
			progress = 1;
		}
		rot++;
		while ((rc = p->recv(p, w)) == 0) {
			unsigned s = (unsigned)(w[0] >> 32), i = (unsigned)w[0];

			if (s >= SENDERS || w[2] != check_word(w[0], w[1]))
				error("%s: corrupt entry %#" PRIx64 " %#" PRIx64 " %#" PRIx64, p->name,
				      w[0], w[1], w[2]);
			else if (i != next[s])
				error("%s: sender %u: entry %u arrived, expected %u", p->name, s, i,
				      next[s]);
			else
				next[s]++;
			lat[got++] = tg_sim_cycles(sim) - w[1];
			outstanding--;
			progress = 1;
		}
		if (rc != -EAGAIN)
			goto out;
		rc = 0;
		if (progress) {
			last = tg_sim_cycles(sim);
		} else {
			if (tg_sim_cycles(sim) - last > STALL_CYCLES) {
				rc = -ETIMEDOUT;
				goto out;
			}
			tg_sim_step(sim, 1);
		}
	}
	for (unsigned s = 0; s < SENDERS; s++)
		if (next[s] != m)
			error("%s: sender %u: %u of %u entries arrived", p->name, s, next[s], m);
	r->cycles = tg_sim_cycles(sim) - c0;
	r->wall = now_s() - t0;
	r->n = total;
	qsort(lat, total, sizeof(uint64_t), cmp_u64);
	r->lat_med = lat[total / 2];
out:
	free(lat);
	return rc;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: tg-swq-demo [-m ENTRIES] [-n SLOTS] [-b BYTES]\n"
		"  -m ENTRIES  entries per sender in the loaded run (default %u)\n"
		"  -n SLOTS    slots of the software queue, a power of two (default %u);\n"
		"              both paths may have as many entries sent and not yet taken\n"
		"  -b BYTES    link bytes per cycle, 1..64 (default %u: Gigabit Ethernet at\n"
		"              the board's core clock)\n",
		DEF_M, DEF_NSLOTS, TG_BOARD_LINK_BYTES);
}

int main(int argc, char **argv)
{
	struct tg_sim_config cfg;
	struct tg_dev *rcv, *snd[SENDERS];
	struct path sw = { .name = "swq", .send = swq_send, .poll = swq_poll, .recv = swq_recv };
	struct path hw = { .name = "hw enqueue", .send = hw_send, .poll = hw_poll, .recv = hw_recv };
	struct path *paths[2] = { &sw, &hw };
	struct result lat[2], load[2];
	unsigned m = DEF_M, nslots = DEF_NSLOTS, bpc = TG_BOARD_LINK_BYTES;
	uint64_t polls = 0;
	int opt, rc = 0;

	while ((opt = getopt(argc, argv, "m:n:b:h")) != -1) {
		switch (opt) {
		case 'm':
			m = (unsigned)strtoul(optarg, NULL, 0);
			break;
		case 'n':
			nslots = (unsigned)strtoul(optarg, NULL, 0);
			break;
		case 'b':
			bpc = (unsigned)strtoul(optarg, NULL, 0);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!m || m > 10000000u || !nslots || (nslots & (nslots - 1)) || !bpc || bpc > 64) {
		usage(stderr);
		return 2;
	}

	tg_sim_config_init(&cfg);
	cfg.nodes = NODES;
	cfg.mem_size = 16ULL << 20;
	cfg.link_bytes_per_cycle = bpc;
	sim = tg_sim_create(&cfg);
	if (!sim) {
		fprintf(stderr, "tg-swq-demo: tg_sim_create: %s\n", strerror(errno));
		return 1;
	}
	rcv = tg_open_sim(sim, RCV, 0);
	for (unsigned s = 0; s < SENDERS; s++)
		snd[s] = tg_open_sim(sim, s, 0);
	if (!rcv || !snd[0] || !snd[1] || !snd[2]) {
		fprintf(stderr, "tg-swq-demo: tg_open_sim: %s\n", tg_open_error());
		return 1;
	}
	sw.q = swq_create(rcv, nslots, WORDS);
	hw.hwq = tg_queue_open(rcv, HWQ_LOG2, HWQ_ENTRY);
	if (!sw.q || !hw.hwq) {
		fprintf(stderr, "tg-swq-demo: queue: %s\n", strerror(errno));
		return 1;
	}
	hw.hwq_pa = tg_queue_paddr(hw.hwq);
	for (unsigned s = 0; s < SENDERS; s++) {
		sw.prod[s] = swq_attach(snd[s], RCV, swq_paddr(sw.q));
		if (!sw.prod[s]) {
			fprintf(stderr, "tg-swq-demo: swq_attach: %s\n", strerror(errno));
			return 1;
		}
		hw.snd[s] = snd[s];
	}

	printf("tg-swq-demo: %u senders (nodes 0..%u) -> node %u, %u-word entries\n", SENDERS,
	       SENDERS - 1, RCV, WORDS);
	printf("  links %u byte(s)/cycle, latency %u cycles; host memory %u..%u cycles\n",
	       cfg.link_bytes_per_cycle, cfg.link_latency, cfg.mem_lat_min, cfg.mem_lat_max);
	printf("  swq: ring of %u slots; hw enqueue: %u-byte entries in a %u-byte buffer;\n"
	       "  at most %u entries sent and not yet taken on either path\n",
	       nslots, HWQ_ENTRY, 1u << HWQ_LOG2, nslots);
	for (unsigned k = 0; k < 2 && !rc; k++) {
		/* unloaded: one entry in the system at a time */
		rc = run(paths[k], LAT_RUNS / SENDERS, 1, &lat[k]);
		if (!rc)
			rc = run(paths[k], m, nslots, &load[k]);
		if (rc)
			fprintf(stderr, "tg-swq-demo: %s: %s\n", paths[k]->name, tg_strerror(rc));
	}
	for (unsigned s = 0; s < SENDERS && !rc; s++) {
		int st = tg_ctx_status(snd[s]);

		if (!st)
			st = tg_enq_wait(snd[s], ENQ_WAIT_NS, NULL);
		if (st)
			error("sender %u: %s", s, tg_dev_error(snd[s]));
		polls += sw.prod[s]->polls;
	}
	if (!rc) {
		printf("\n%-40s %12s %12s %8s\n", "", "swq", "hw enqueue", "swq/hw");
		printf("%-40s %12" PRIu64 " %12" PRIu64 " %7.2fx\n",
		       "latency, one at a time (median cycles)", lat[0].lat_med, lat[1].lat_med,
		       (double)lat[0].lat_med / (double)lat[1].lat_med);
		printf("%-40s %12" PRIu64 " %12" PRIu64 " %7.2fx\n",
		       "latency, all senders busy (median)", load[0].lat_med, load[1].lat_med,
		       (double)load[0].lat_med / (double)load[1].lat_med);
		printf("%-40s %12.2f %12.2f %7.2fx\n", "throughput (entries per 1000 cycles)",
		       1000.0 * (double)load[0].n / (double)load[0].cycles,
		       1000.0 * (double)load[1].n / (double)load[1].cycles,
		       (double)load[1].cycles / (double)load[0].cycles);
		printf("%-40s %12" PRIu64 " %12" PRIu64 "\n", "entries in the loaded run", load[0].n,
		       load[1].n);
		printf("%-40s %12.1f %12.1f\n", "wall seconds (unloaded + loaded run)",
		       lat[0].wall + load[0].wall, lat[1].wall + load[1].wall);
		printf("(loaded: senders keep up to %u entries in flight, so the latency includes\n"
		       " the wait behind them at the receiver)\n", nslots);
		printf("swq: %" PRIu64 " slot reads found an earlier lap still in the slot\n", polls);
	}
	for (unsigned s = 0; s < SENDERS; s++) {
		swq_detach(sw.prod[s]);
		tg_close(snd[s]);
	}
	swq_destroy(sw.q);
	tg_queue_close(hw.hwq);
	tg_close(rcv);
	tg_sim_destroy(sim);
	if (rc || errors) {
		fprintf(stderr, "tg-swq-demo: FAILED (%lu errors)\n", errors);
		return 1;
	}
	printf("every entry arrived once and in its sender's order\n");
	return 0;
}
