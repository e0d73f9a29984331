/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Demo: remote writes, reads, atomics and enqueues between nodes 0 and 1 of a running tg-sim, with NIC-measured latency. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tg/tg.h"
#include "tg/tg_barrier.h"

/* ns per NIC cycle: from the NIC's clock (tg_clock_khz) once open */
static double ns_per_cycle = 8.0;
#define DEFAULT_REPS   1000u
#define POLL_TIMEOUT_S 10.0
#define RATE_ENTRIES   4000u   /* back-to-back REQs for the sustained rate */
#define WAIT_ENTRIES   200u    /* entries taken by a sleeping tg_deq_wait */
#define RATE_ATOMICS   4000u   /* non-blocking fetch-and-adds for the sustained rate */
#define ATOMIC_SLOTS   8u      /* ... in flight at once (the NIC's fetch table) */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *what, uint64_t *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	printf("  %-28s median %4" PRIu64 " cycles (%6.0f ns), min %4" PRIu64 ", max %4" PRIu64
	       "  [%u runs]\n", what, v[n / 2], (double)v[n / 2] * ns_per_cycle, v[0], v[n - 1], n);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int fail(const char *what, int rc)
{
	fprintf(stderr, "tg_demo: %s: %s\n", what, tg_strerror(rc));
	return 1;
}

/* Read CSR reg of dev, exiting on failure. */
static uint64_t csr(struct tg_dev *dev, uint64_t reg)
{
	uint64_t v = 0;
	int rc = tg_csr_read(dev, reg, &v);

	if (rc) {
		fprintf(stderr, "tg_demo: CSR read: %s\n", tg_strerror(rc));
		exit(1);
	}
	return v;
}

/* Take one entry from q, polling; *cyc gets the NIC's CYCLES read right
 * after the dequeue, the counter its timestamps come from.  0, or
 * -ETIMEDOUT. */
static int deq_poll(struct tg_dev *dev, struct tg_queue *q, uint64_t *v, uint64_t *cyc)
{
	double t0 = now_s();
	int rc;

	while ((rc = tg_deq(q, v, 8)) == -EAGAIN)
		if (now_s() - t0 > POLL_TIMEOUT_S)
			return -ETIMEDOUT;
	*cyc = csr(dev, TG_CSR_REG_CYCLES);
	return rc;
}

/* Remote fetch-and-add on a word of node 1 from node 0: blocking latency
 * by the NIC's stamps, then the rate of non-blocking ones kept 8 deep.
 * Every old value is checked.  Returns 0 or -errno. */
static int atomics(struct tg_dev *n0, uint64_t pa, unsigned reps)
{
	uint64_t *lat = calloc(reps, sizeof(*lat)), zero = 0, old, c0, c1;
	struct tg_mr *rec = tg_mr_alloc(n0, 16 * ATOMIC_SLOTS, TG_ACCESS_ALL);
	unsigned posted = 0, done = 0;
	int err = lat && rec ? 0 : -ENOMEM;

	if (!err)
		err = tg_write(n0, 1, pa, &zero, 8);
	for (unsigned i = 0; i < reps && !err; i++) {
		err = tg_faa(n0, 1, pa, 1, &old);
		if (!err && old != i)
			err = -EIO;
		if (!err)
			lat[i] = csr(n0, TG_CSR_REG_TS_HOST_RESP) - csr(n0, TG_CSR_REG_TS_HOST_REQ);
	}
	if (err) {
		fprintf(stderr, "tg_demo: blocking fetch-and-add: %s\n", tg_strerror(err));
		goto out;
	}
	report("remote fetch-and-add", lat, reps);
	printf("    (TS_HOST_REQ to TS_HOST_RESP on node 0: the old value is back and the\n"
	       "     new one is in node 1's memory)\n");
	c0 = tg_cycles(n0);
	while (done < RATE_ATOMICS && !err) {
		if (posted < RATE_ATOMICS && posted - done < ATOMIC_SLOTS) {
			err = tg_atomic_post(n0, 1, pa, TG_AOP_FAA, 1, 0, rec, 16u * (posted % ATOMIC_SLOTS));
			posted++;
			continue;
		}
		err = tg_atomic_wait(n0, rec, 16u * (done % ATOMIC_SLOTS), &old);
		if (!err && old != reps + done)
			err = -EIO;
		done++;
	}
	c1 = tg_cycles(n0);
	if (err) {
		fprintf(stderr, "tg_demo: non-blocking fetch-and-add: %s\n", tg_strerror(err));
		goto out;
	}
	printf("  sustained: %u non-blocking fetch-and-adds, %u in flight, in %" PRIu64
	       " cycles = %.1f per 1000 cycles\n", RATE_ATOMICS, ATOMIC_SLOTS, c1 - c0,
	       1000.0 * RATE_ATOMICS / (double)(c1 - c0));
out:
	tg_mr_free(rec);
	free(lat);
	return err;
}

int main(int argc, char **argv)
{
	const char *name = getenv("TG_SIM_NAME") ? getenv("TG_SIM_NAME") : "tg";
	unsigned reps = DEFAULT_REPS;
	struct tg_dev *n0 = NULL, *n1 = NULL;
	struct tg_mr *mr = NULL;
	struct tg_win *win = NULL;
	struct tg_queue *q = NULL;
	uint64_t *wlat = NULL, *rlat = NULL, *qlat = NULL, *dlat = NULL, *slat = NULL, pa, id;
	uint64_t last_done;
	uint8_t blk[64], back[64];
	volatile uint8_t *tgt;
	char dev[96];
	int rc = 1, err;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--name") && i + 1 < argc) {
			name = argv[++i];
		} else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
			reps = (unsigned)strtoul(argv[++i], NULL, 0);
		} else {
			fprintf(stderr, "usage: tg_demo [--name SIMULATOR] [--reps N]\n");
			return 2;
		}
	}
	if (!reps || reps > 1000000) {
		fprintf(stderr, "tg_demo: --reps must be 1..1000000\n");
		return 2;
	}
	snprintf(dev, sizeof(dev), "sim:%s:0", name);
	n0 = tg_open(dev, TG_OPEN_DRIVER);
	if (!n0) {
		fprintf(stderr, "tg_demo: %s\n", tg_open_error());
		return 1;
	}
	snprintf(dev, sizeof(dev), "sim:%s:1", name);
	n1 = tg_open(dev, TG_OPEN_DRIVER);
	if (!n1) {
		fprintf(stderr, "tg_demo: %s\n", tg_open_error());
		rc = 1;
		goto out;
	}
	if (tg_clock_khz(n0))
		ns_per_cycle = 1e6 / tg_clock_khz(n0);
	id = tg_nic_id(n0);
	printf("tg_demo: simulator \"%s\", %d nodes, NIC ID %#" PRIx64 " (version %u.%u)\n", name,
	       tg_num_nodes(n0), id, (unsigned)(id >> 16) & 0xffffu, (unsigned)id & 0xffffu);
	printf("  node 0: context %d, MAC %012" PRIx64 "; node 1: context %d, MAC %012" PRIx64 "\n",
	       tg_context(n0), csr(n0, TG_CSR_REG_MAC), tg_context(n1), csr(n1, TG_CSR_REG_MAC));

	mr = tg_mr_alloc(n1, 4096, TG_ACCESS_ALL);
	win = tg_win_open(n0, 1);
	wlat = calloc(reps, sizeof(*wlat));
	rlat = calloc(reps, sizeof(*rlat));
	if (!mr || !win || !wlat || !rlat) {
		rc = fail("setup", -errno);
		goto out;
	}
	pa = tg_mr_paddr(mr);
	tgt = tg_mr_ptr(mr);
	last_done = csr(n1, TG_CSR_REG_TS_RX_DONE);
	printf("  node 1 exports 4096 bytes at physical address %#" PRIx64 "\n", pa);

	/* remote 8-byte write: node 0 stores, node 1's memory is polled */
	for (unsigned i = 0; i < reps; i++) {
		uint64_t v = 0x5447000000000000ULL | i, seen, req, done;
		double t0 = now_s();

		err = tg_write(n0, 1, pa, &v, 8);
		if (err) {
			rc = fail("remote write", err);
			goto out;
		}
		/* a plain load of shared memory; acquire pairs with the
		 * memory model's release store of the NIC's write */
		while ((seen = TG_DEV_LOAD_ACQ64(tgt)) != v) {
			if (now_s() - t0 > POLL_TIMEOUT_S) {
				fprintf(stderr, "tg_demo: write %u never arrived (memory holds %#" PRIx64
					")\n", i, seen);
				goto out;
			}
		}
		/* both stamps come from NIC registers on one shared clock.  The
		 * word is visible as soon as the memory answers the NIC, which
		 * stamps TS_RX_DONE when it sees that answer: wait for the stamp
		 * to move past the previous write's */
		req = csr(n0, TG_CSR_REG_TS_HOST_REQ);
		while ((done = csr(n1, TG_CSR_REG_TS_RX_DONE)) == last_done) {
			if (now_s() - t0 > POLL_TIMEOUT_S) {
				fprintf(stderr, "tg_demo: TS_RX_DONE did not move for write %u\n", i);
				goto out;
			}
		}
		last_done = done;
		if (done < req) {
			fprintf(stderr, "tg_demo: write %u done at cycle %" PRIu64 " before its request at %"
				PRIu64 "\n", i, done, req);
			goto out;
		}
		wlat[i] = done - req;

		/* remote 8-byte read of the same word through the window */
		seen = tg_win_load64(win, pa);
		if (seen != v || tg_win_error(win)) {
			fprintf(stderr, "tg_demo: read %u returned %#" PRIx64 ", want %#" PRIx64 "\n",
				i, seen, v);
			goto out;
		}
		rlat[i] = csr(n0, TG_CSR_REG_TS_HOST_RESP) - csr(n0, TG_CSR_REG_TS_HOST_REQ);
	}
	printf("  %u remote 8-byte writes and reads verified\n", reps);

	/* a 64-byte write: one burst, one frame; fenced, then read back */
	for (unsigned i = 0; i < sizeof(blk); i++)
		blk[i] = (uint8_t)(0xc0 ^ i * 7);
	err = tg_write(n0, 1, pa + 64, blk, sizeof(blk));
	if (!err)
		err = tg_fence(n0, 1);
	if (err) {
		rc = fail("64-byte write", err);
		goto out;
	}
	if (memcmp((const void *)(tgt + 64), blk, sizeof(blk))) {
		fprintf(stderr, "tg_demo: 64-byte write differs in node 1's memory\n");
		goto out;
	}
	err = tg_read(n0, 1, pa + 64, back, sizeof(back));
	if (err || memcmp(back, blk, sizeof(blk))) {
		rc = err ? fail("64-byte read", err) : 1;
		if (!err)
			fprintf(stderr, "tg_demo: 64-byte read back differs\n");
		goto out;
	}
	printf("  64-byte write verified in node 1's memory and read back\n");

	printf("latency measured by the NICs' timestamp CSRs (one clock, %.0f ns per cycle):\n",
	       ns_per_cycle);
	report("remote 8-byte write", wlat, reps);
	printf("    (TS_HOST_REQ on node 0 to TS_RX_DONE on node 1: data in node 1's memory)\n");
	report("remote 8-byte read", rlat, reps);
	printf("    (TS_HOST_REQ to TS_HOST_RESP on node 0: the load's full round trip)\n");
	err = atomics(n0, pa + 512, reps);
	if (err)
		goto out;

	/* remote enqueue: node 0 sends, node 1 dequeues */
	q = tg_queue_open(n1, 16, 8);
	qlat = calloc(reps, sizeof(*qlat));
	dlat = calloc(reps, sizeof(*dlat));
	slat = calloc(WAIT_ENTRIES, sizeof(*slat));
	if (!q || !qlat || !dlat || !slat) {
		rc = fail("queue", -errno);
		goto out;
	}
	printf("  node 1 has a queue of 8-byte entries at %#" PRIx64 " (64 KiB buffer)\n",
	       tg_queue_paddr(q));
	last_done = csr(n1, TG_CSR_REG_TS_ENQ_DONE);
	for (unsigned i = 0; i < reps; i++) {
		uint64_t v = 0, deq_cyc = 0, req, done;

		err = tg_enq(n0, 1, tg_queue_paddr(q), 0x51000000ULL | i);
		if (!err)
			err = deq_poll(n1, q, &v, &deq_cyc);
		if (err || v != (0x51000000ULL | i)) {
			if (!err)
				fprintf(stderr, "tg_demo: entry %u is %#" PRIx64 "\n", i, v);
			rc = err ? fail("enqueue", err) : 1;
			goto out;
		}
		/* read after the dequeue so that the reads do not delay it */
		req = csr(n0, TG_CSR_REG_TS_HOST_REQ);
		done = csr(n1, TG_CSR_REG_TS_ENQ_DONE);
		if (done == last_done || done < req || deq_cyc < req) {
			fprintf(stderr, "tg_demo: entry %u: stamps request %" PRIu64 ", done %" PRIu64
				", dequeued %" PRIu64 "\n", i, req, done, deq_cyc);
			goto out;
		}
		last_done = done;
		qlat[i] = done - req;
		dlat[i] = deq_cyc - req;
	}
	printf("  %u remote enqueues verified in order\n", reps);
	{
		/* sustained rate of one sender: back to back, drained as they come */
		uint64_t c0 = tg_cycles(n0), c1 = c0, v;
		unsigned sent = 0, got = 0;
		double t0 = now_s();

		while (got < RATE_ENTRIES) {
			if (sent < RATE_ENTRIES && sent - got < 1000u) {
				err = tg_enq(n0, 1, tg_queue_paddr(q), sent);
				if (err) {
					rc = fail("enqueue", err);
					goto out;
				}
				sent++;
			}
			while (tg_deq(q, &v, 8) == 0) {
				if (v != got) {
					fprintf(stderr, "tg_demo: rate run: entry %u is %" PRIu64 "\n", got, v);
					goto out;
				}
				got++;
				c1 = tg_cycles(n1);
			}
			if (now_s() - t0 > 60.0) {
				fprintf(stderr, "tg_demo: rate run stalled at %u entries\n", got);
				goto out;
			}
		}
		printf("remote enqueue, node 0 to node 1 (%u entries, one sender):\n", reps);
		report("store to entry+tail in memory", qlat, reps);
		printf("    (TS_HOST_REQ on node 0 to TS_ENQ_DONE on node 1)\n");
		report("store to dequeued by program", dlat, reps);
		printf("    (TS_HOST_REQ on node 0 to node 1's CYCLES read right after tg_deq\n"
		       "     returned, polling: the counter the NIC's stamps come from)\n");
		/* the sleeping receiver: tg_deq_wait arms the NIC's
		 * notification and sleeps on a futex until the driver's
		 * interrupt handler wakes it */
		for (unsigned i = 0; i < WAIT_ENTRIES; i++) {
			uint64_t req;

			err = tg_enq(n0, 1, tg_queue_paddr(q), 0x52000000ULL | i);
			if (!err)
				err = tg_deq_wait(q, &v, 8, 10000000000ull);
			if (!err && v != (0x52000000ULL | i))
				err = -EIO;
			if (err) {
				rc = fail("tg_deq_wait", err);
				goto out;
			}
			slat[i] = csr(n1, TG_CSR_REG_CYCLES);
			req = csr(n0, TG_CSR_REG_TS_HOST_REQ);
			slat[i] = slat[i] > req ? slat[i] - req : 0;
		}
		report("store to woken and dequeued", slat, WAIT_ENTRIES);
		printf("    (the same, with the program asleep in tg_deq_wait: notification\n"
		       "     interrupt, driver wake-up through a futex, dequeue)\n");
		printf("  sustained: %u back-to-back REQs from one sender in %" PRIu64
		       " cycles = %.1f entries per 1000 cycles\n", RATE_ENTRIES, c1 - c0,
		       1000.0 * RATE_ENTRIES / (double)(c1 - c0));
	}

	printf("frames: node 0 sent %" PRIu64 ", node 1 sent %" PRIu64 "; refused %" PRIu64
	       ", dropped (FCS/type/malformed) %" PRIu64 "/%" PRIu64 "/%" PRIu64 "\n",
	       csr(n0, TG_CSR_REG_TX_FRAMES), csr(n1, TG_CSR_REG_TX_FRAMES),
	       csr(n1, TG_CSR_REG_RX_REFUSED), csr(n1, TG_CSR_REG_RX_DROP_FCS),
	       csr(n1, TG_CSR_REG_RX_DROP_TYPE), csr(n1, TG_CSR_REG_RX_DROP_MALFORMED));
	rc = 0;
out:
	free(wlat);
	free(rlat);
	free(qlat);
	free(dlat);
	free(slat);
	tg_queue_close(q);
	tg_win_close(win);
	tg_mr_free(mr);
	tg_close(n1);
	tg_close(n0);
	if (rc == 0)
		printf("tg_demo: ok\n");
	return rc;
}
