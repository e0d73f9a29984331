/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: libtg's Ethernet provider against two simulated FPGA boards (tg-board-sim): identity,
 * board memory, remote writes, reads and atomics, fetches, posted atomics and exports, remote
 * enqueues with dequeue and growth, entries of 1 to 8 words, bad input; then a lossy wire: every
 * request still runs exactly once. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tg_test_child.h"

#ifndef TG_BOARD_SIM_BIN
#define TG_BOARD_SIM_BIN "build/bin/tg-board-sim"
#endif

#define TIMEOUT_S  600u

static char dir[64];

static void stop_sim(void)
{
	if (t_child_pid > 0) {
		kill(t_child_pid, SIGTERM);
		waitpid(t_child_pid, NULL, 0);
		t_child_pid = 0;
	}
}

/* Start the boards (losing every lose-th frame each way at the bridges
 * unless lose is NULL); returns once they say they are ready. */
static void start_sim(const char *lose)
{
	const char *bin = getenv("TG_BOARD_SIM_BIN");
	char line[256];
	size_t used = 0;
	int fds[2];

	if (!bin || !*bin)
		bin = TG_BOARD_SIM_BIN;
	REQUIRE(access(bin, X_OK) == 0, "%s: not built", bin);
	snprintf(dir, sizeof(dir), "/tmp/tg-eth-test-%d", (int)getpid());
	REQUIRE(pipe(fds) == 0, "pipe");
	t_child_pid = fork();
	REQUIRE(t_child_pid >= 0, "fork");
	if (t_child_pid == 0) {
		/* the boards go with the test, however it ends */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(fds[1], 1);
		close(fds[0]);
		if (lose)
			execl(bin, bin, "--dir", dir, "--lose", lose, (char *)NULL);
		else
			execl(bin, bin, "--dir", dir, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (used + 1 < sizeof(line)) {
		ssize_t n = read(fds[0], line + used, 1);

		REQUIRE(n == 1, "tg-board-sim ended before it was ready: %.*s", (int)used, line);
		if (line[used++] == '\n')
			break;
	}
	line[used] = 0;
	REQUIRE(strstr(line, "ready"), "tg-board-sim said: %s", line);
	/* its later output is not read: it must not block on the pipe */
	close(fds[0]);
}

static struct tg_dev *open_board(unsigned node, unsigned flags)
{
	char devstr[128];
	struct tg_dev *d;

	snprintf(devstr, sizeof(devstr), "ethsim:%s/node%u.sock", dir, node);
	d = tg_open(devstr, flags);
	REQUIRE(d, "tg_open(%s): %s: %s", devstr, tg_strerror(-errno), tg_open_error());
	return d;
}

static void check_identity(struct tg_dev *d0, struct tg_dev *d1)
{
	CHECK(tg_check_id(tg_nic_id(d0)) == 0, "node 0 ID 0x%016" PRIx64, tg_nic_id(d0));
	CHECK(tg_node_id(d0) == 0 && tg_node_id(d1) == 1, "node ids %d %d", tg_node_id(d0),
	      tg_node_id(d1));
	CHECK(tg_mem_size(d0) == 16384 && tg_mem_size(d1) == 16384, "memory %" PRIu64 " %" PRIu64,
	      tg_mem_size(d0), tg_mem_size(d1));
	uint64_t c0 = tg_cycles(d0), c1 = tg_cycles(d0);

	CHECK(c1 > c0, "CYCLES does not move: %" PRIu64 " then %" PRIu64, c0, c1);
}

/* Board memory through tg_mr_read and tg_mr_write, any alignment. */
static void check_local_memory(struct tg_dev *d1, struct tg_mr *mr)
{
	uint8_t in[200], out[200];

	CHECK(tg_mr_ptr(mr) == NULL, "a board's memory is not mapped");
	for (unsigned i = 0; i < sizeof(in); i++)
		in[i] = t_pat(5, i);
	CHECK_RC(tg_mr_write(mr, 3, in, sizeof(in)), 0);
	memset(out, 0, sizeof(out));
	CHECK_RC(tg_mr_read(mr, 3, out, sizeof(out)), 0);
	CHECK(!memcmp(in, out, sizeof(in)), "memory read back differs");
	/* the neighbours of an unaligned write are untouched */
	memset(out, 0xee, 4);
	CHECK_RC(tg_mr_write(mr, 0, out, 3), 0);
	CHECK_RC(tg_mr_read(mr, 0, out, 4), 0);
	CHECK(out[0] == 0xee && out[2] == 0xee && out[3] == in[0], "byte enables: %02x %02x %02x",
	      out[0], out[2], out[3]);
	CHECK_RC(tg_mr_read(mr, tg_mr_len(mr) - 4, out, 8), -EINVAL);
	CHECK_RC(tg_mr_write(mr, tg_mr_len(mr) + 1, in, 0), -EINVAL);
	(void)d1;
}

/* Node 0 writes node 1's region through the network, reads it back. */
static void check_remote(struct tg_dev *d0, struct tg_dev *d1, struct tg_mr *mr)
{
	uint8_t in[100], out[100], got[100], around[112];
	uint64_t pa = tg_mr_paddr(mr) + 256;

	for (unsigned i = 0; i < sizeof(in); i++)
		in[i] = t_pat(9, i);
	/* the write's first and last words are partial: their other bytes stay */
	memset(around, 0xee, sizeof(around));
	CHECK_RC(tg_mr_write(mr, 256, around, sizeof(around)), 0);
	CHECK_RC(tg_write(d0, 1, pa + 5, in, sizeof(in)), 0);
	CHECK_RC(tg_fence(d0, 1), 0);
	CHECK_RC(tg_mr_read(mr, 256 + 5, got, sizeof(got)), 0);
	CHECK(!memcmp(in, got, sizeof(in)), "remote write differs in node 1's memory");
	CHECK_RC(tg_mr_read(mr, 256, around, sizeof(around)), 0);
	for (unsigned i = 0; i < sizeof(around); i++)
		if (i < 5 || i >= 5 + sizeof(in))
			CHECK(around[i] == 0xee, "byte %u next to a remote write: 0x%02x", i, around[i]);
	/* one word (a blocking load) and many (fetches into board memory) */
	CHECK_RC(tg_read(d0, 1, pa + 5, out, 3), 0);
	CHECK(!memcmp(in, out, 3), "one-word remote read differs");
	memset(out, 0, sizeof(out));
	CHECK_RC(tg_read(d0, 1, pa + 5, out, sizeof(out)), 0);
	CHECK(!memcmp(in, out, sizeof(out)), "remote read differs");
	CHECK_RC(tg_read(d0, 1, tg_mem_size(d1) - 4, out, 8), -EFAULT);
}

static void check_atomics(struct tg_dev *d0, struct tg_mr *mr)
{
	uint64_t pa = tg_mr_paddr(mr) + 512, old = 0, v = 40;

	CHECK_RC(tg_mr_write(mr, 512, &v, 8), 0);
	CHECK_RC(tg_faa(d0, 1, pa, 2, &old), 0);
	CHECK(old == 40, "faa old %" PRIu64, old);
	CHECK_RC(tg_cas(d0, 1, pa, 42, 100, &old), 0);
	CHECK(old == 42, "cas old %" PRIu64, old);
	CHECK_RC(tg_cas(d0, 1, pa, 42, 7, &old), 0);
	CHECK(old == 100, "failed cas old %" PRIu64, old);
	CHECK_RC(tg_swap(d0, 1, pa, 5, &old), 0);
	CHECK(old == 100, "swap old %" PRIu64, old);
	CHECK_RC(tg_fetch_inc(d0, 1, pa, &old), 0);
	CHECK_RC(tg_mr_read(mr, 512, &v, 8), 0);
	CHECK(old == 5 && v == 6, "fetch-inc old %" PRIu64 ", now %" PRIu64, old, v);
}

/* The boards' NICs have a fetch table and a region table (CONFIG): a
 * fetch and a posted atomic from node 1's memory complete, and a region
 * exports. */
static void check_features(struct tg_dev *d0, struct tg_mr *rmr)
{
	uint64_t cfg = 0, key = 0, old = 0, v = 0, want = 0x1122334455667788ull;
	uint64_t pa = tg_mr_paddr(rmr) + 256;
	struct tg_mr *mr = tg_mr_alloc(d0, 128, TG_ACCESS_ALL);

	REQUIRE(mr, "tg_mr_alloc on node 0: %s", tg_strerror(-errno));
	CHECK_RC(tg_csr_read(d0, TG_CSR_REG_CONFIG, &cfg), 0);
	CHECK(((cfg >> 8) & 0xFF) != 0 && !(cfg & TG_CONFIG_NO_PROT),
	      "CONFIG %#" PRIx64 ": the boards were to have a fetch table and a region table", cfg);
	CHECK_RC(tg_mr_write(rmr, 256, &want, 8), 0);
	CHECK_RC(tg_mr_write(mr, 0, &v, 8), 0);
	CHECK_RC(tg_fetch(d0, 1, pa, mr, 0, 8, mr, 64), 0);
	CHECK_RC(tg_fetch_wait(d0, mr, 64), 0);
	CHECK_RC(tg_mr_read(mr, 0, &v, 8), 0);
	CHECK(v == want, "fetched word %#" PRIx64, v);
	CHECK_RC(tg_atomic_post(d0, 1, pa, TG_AOP_FAA, 1, 0, mr, 16), 0);
	CHECK_RC(tg_atomic_wait(d0, mr, 16, &old), 0);
	CHECK(old == want, "posted fetch-and-add old %#" PRIx64, old);
	want++;
	CHECK_RC(tg_mr_read(rmr, 256, &v, 8), 0);
	CHECK(v == want, "word after the posted atomic %#" PRIx64, v);
	CHECK_RC(tg_mr_export(mr, &key), 0);
	CHECK(key != 0, "export key %#" PRIx64, key);
	CHECK_RC(tg_mr_revoke(mr), 0);
	tg_mr_free(mr);
}

/* Remote enqueues into a queue of node 1 from a producer thread on node
 * 0, dequeued here as they come: in order, none lost or doubled, several
 * times the first buffer's 15 slots.  When the consumer falls behind, the
 * queue fills; the driver (polling IRQ_STATUS through the bridge) moves
 * the entries to a new buffer while memory lasts, and after that the NIC
 * holds the REQs back until the consumer makes room. */
#define QN  60u

struct producer {
	struct tg_dev *dev;
	uint64_t qpa;
	int rc;
};

static void *produce(void *arg)
{
	struct producer *p = arg;

	for (unsigned i = 0; i < QN && !p->rc; i++)
		p->rc = tg_enq(p->dev, 1, p->qpa, 0x1000u + i);
	return NULL;
}

static void check_queue(struct tg_dev *d0, struct tg_dev *d1)
{
	struct tg_queue *q = tg_queue_open(d1, 8, 8);
	struct producer p = { d0, 0, 0 };
	uint64_t w = 0;
	unsigned got = 0;
	pthread_t th;
	int rc;

	REQUIRE(q, "tg_queue_open on the board: %s", tg_strerror(-errno));
	CHECK_RC(tg_deq(q, &w, sizeof(w)), -EAGAIN);
	p.qpa = tg_queue_paddr(q);
	REQUIRE(pthread_create(&th, NULL, produce, &p) == 0, "pthread_create");
	/* let the queue overflow before the first dequeue */
	usleep(300000);
	while (got < QN) {
		rc = tg_deq_wait(q, &w, sizeof(w), 20000000000ull);
		CHECK(rc == 0 && w == 0x1000u + got, "entry %u: rc %d (%s), got 0x%" PRIx64, got, rc,
		      tg_strerror(rc), w);
		if (rc)
			break;
		got++;
	}
	pthread_join(th, NULL);
	CHECK_RC(p.rc, 0);
	CHECK_RC(tg_deq(q, &w, sizeof(w)), -EAGAIN);
	tg_queue_close(q);
}

/* Entries of 1 to 8 words: each tg_enq_multi is one burst request to the
 * bridge and one entry, zero-filled past its words. */
static void check_multi(struct tg_dev *d0, struct tg_dev *d1, unsigned rounds)
{
	unsigned eb = tg_block_bytes(d1), maxw = eb / 8u;
	struct tg_queue *q = tg_queue_open(d1, 10, eb);
	uint64_t words[8], e[8];

	REQUIRE(q, "tg_queue_open(%u-byte entries): %s", eb, tg_strerror(-errno));
	for (unsigned r = 0; r < rounds; r++) {
		for (unsigned n = 1; n <= maxw; n++) {
			for (unsigned i = 0; i < n; i++)
				words[i] = (uint64_t)r << 32 | n << 8 | i;
			CHECK_RC(tg_enq_multi(d0, 1, tg_queue_paddr(q), words, n), 0);
		}
		for (unsigned n = 1; n <= maxw; n++) {
			int rc = tg_deq_wait(q, e, eb, 20000000000ull);

			CHECK(rc == 0, "entry of %u words: %s", n, tg_strerror(rc));
			for (unsigned i = 0; i < maxw && !rc; i++) {
				uint64_t want = i < n ? (uint64_t)r << 32 | n << 8 | i : 0;

				CHECK(e[i] == want, "round %u, entry of %u words, word %u: 0x%" PRIx64, r,
				      n, i, e[i]);
			}
		}
	}
	CHECK_RC(tg_deq(q, e, eb), -EAGAIN);
	/* the outcome of REQs over the bridge: all delivered, then one to an
	 * address inside the queue's buffer (no queue's base) refused */
	CHECK_RC(tg_enq_wait(d0, 20000000000ull, NULL), 0);
	{
		uint64_t failed = 0;

		CHECK_RC(tg_enq(d0, 1, tg_queue_paddr(q) + 256, 1), 0);
		CHECK_RC(tg_enq_wait(d0, 20000000000ull, &failed), -ENOENT);
		CHECK(failed && failed == tg_enq_ticket(d0), "failed ticket %" PRIu64 " of %" PRIu64, failed,
		      tg_enq_ticket(d0));
	}
	CHECK_RC(tg_deq(q, e, eb), -EAGAIN);
	tg_queue_close(q);
}

/* A lossy wire: the simulated boards lose every 9th request to a bridge
 * and every 9th answer from it.  The provider sends a request again when
 * its answer does not come, and the bridge answers a resend of the
 * request it executed last from the kept answer: fetch-and-adds count
 * exactly, enqueues arrive once each and in order, a remote write lands. */
#define LOSSY_N 16u

static void check_lossy(void)
{
	struct tg_dev *d0, *d1;
	struct tg_mr *mr;
	struct tg_queue *q;
	uint64_t pa, v = 1000, old = 0, w = 0;
	uint8_t in[40], got[40];

	setenv("TG_ETH_TIMEOUT_MS", "100", 1);
	start_sim("9");
	d0 = open_board(0, 0);
	d1 = open_board(1, 0);
	mr = tg_mr_alloc(d1, 1024, TG_ACCESS_ALL);
	REQUIRE(mr, "tg_mr_alloc on a lossy board: %s", tg_strerror(-errno));
	pa = tg_mr_paddr(mr);
	CHECK_RC(tg_mr_write(mr, 0, &v, 8), 0);
	for (unsigned i = 0; i < LOSSY_N; i++) {
		CHECK_RC(tg_faa(d0, 1, pa, 3, &old), 0);
		CHECK(old == 1000u + 3u * i, "lossy faa %u: old %" PRIu64, i, old);
	}
	CHECK_RC(tg_mr_read(mr, 0, &v, 8), 0);
	CHECK(v == 1000u + 3u * LOSSY_N, "after %u lossy fetch-and-adds of 3: %" PRIu64, LOSSY_N, v);
	for (unsigned i = 0; i < sizeof(in); i++)
		in[i] = t_pat(11, i);
	CHECK_RC(tg_write(d0, 1, pa + 64, in, sizeof(in)), 0);
	CHECK_RC(tg_fence(d0, 1), 0);
	CHECK_RC(tg_mr_read(mr, 64, got, sizeof(got)), 0);
	CHECK(!memcmp(in, got, sizeof(in)), "lossy remote write differs");
	tg_mr_free(mr);

	q = tg_queue_open(d1, 8, 8);
	REQUIRE(q, "tg_queue_open on a lossy board: %s", tg_strerror(-errno));
	for (unsigned i = 0; i < LOSSY_N; i++) {
		CHECK_RC(tg_enq(d0, 1, tg_queue_paddr(q), 0x2000u + i), 0);
		CHECK_RC(tg_deq_wait(q, &w, sizeof(w), 20000000000ull), 0);
		CHECK(w == 0x2000u + i, "lossy entry %u: 0x%" PRIx64, i, w);
	}
	CHECK_RC(tg_deq(q, &w, sizeof(w)), -EAGAIN);
	tg_queue_close(q);
	check_multi(d0, d1, 3);
	tg_close(d0);
	tg_close(d1);
	stop_sim();
	unsetenv("TG_ETH_TIMEOUT_MS");
}

static void check_bad_devices(void)
{
	char devstr[128];

	snprintf(devstr, sizeof(devstr), "ethsim:%s/node9.sock", dir);
	errno = 0;
	CHECK(!tg_open(devstr, 0) && errno != 0 && *tg_open_error(),
	      "a missing board opened (errno %d)", errno);
	errno = 0;
	CHECK(!tg_open("eth:tg-no-such-if0", 0) && errno == ENODEV, "errno %d: %s", errno,
	      tg_open_error());
	errno = 0;
	CHECK(!tg_open("eth:lo:x", 0) && errno == EINVAL, "errno %d", errno);
	errno = 0;
	CHECK(!tg_open("ethsim:", 0) && errno == EINVAL, "errno %d", errno);
}

int main(void)
{
	struct tg_dev *d0, *d1, *again;
	struct tg_mr *mr;

	signal(SIGALRM, t_on_alarm_child);
	alarm(TIMEOUT_S);
	start_sim(NULL);
	atexit(stop_sim);
	d0 = open_board(0, TG_OPEN_DRIVER);   /* its CSR page says what the NIC has */
	d1 = open_board(1, 0);
	check_identity(d0, d1);
	/* one process drives a board */
	{
		char devstr[128];

		snprintf(devstr, sizeof(devstr), "ethsim:%s/node1.sock", dir);
		again = tg_open(devstr, 0);
		CHECK(!again && errno == EBUSY, "a second driver of node 1: errno %d", errno);
		tg_close(again);
	}
	mr = tg_mr_alloc(d1, 1024, TG_ACCESS_ALL);
	REQUIRE(mr, "tg_mr_alloc on the board: %s", tg_strerror(-errno));
	check_local_memory(d1, mr);
	check_remote(d0, d1, mr);
	check_atomics(d0, mr);
	check_features(d0, mr);
	/* the board's 16 KiB hold three 4 KiB allocations: room for growth */
	tg_mr_free(mr);
	check_queue(d0, d1);
	check_multi(d0, d1, 2);
	check_bad_devices();
	tg_close(d0);
	tg_close(d1);
	stop_sim();
	check_lossy();
	if (t_failed)
		return T_FAIL;
	printf("test_eth: pass\n");
	return T_PASS;
}
