/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: several consumer threads drain one queue of a real tg-sim process while two nodes enqueue; every entry is taken exactly once. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tg_test_child.h"

#ifndef TG_SIM_BIN
#define TG_SIM_BIN "build/bin/tg-sim"
#endif

#define SENDERS    2u          /* nodes 0 and 1 */
#define RCV        2u
#define CONSUMERS  3u
#define M          4000u       /* entries per sender */
#define TIMEOUT_S  120u

static char name[64];
static uint64_t qpa;
static _Atomic uint8_t seen[SENDERS][M];
static _Atomic uint64_t taken, dups, disorder;
static _Atomic unsigned taken_by[CONSUMERS];

static struct tg_dev *open_node(unsigned node)
{
	char dev[96];
	struct tg_dev *d;

	snprintf(dev, sizeof(dev), "sim:%s:%u", name, node);
	d = tg_open(dev, TG_OPEN_DRIVER);
	REQUIRE(d, "tg_open(%s): %s", dev, tg_strerror(-errno));
	return d;
}

static void *sender(void *arg)
{
	unsigned s = (unsigned)(uintptr_t)arg;
	struct tg_dev *d = open_node(s);

	for (unsigned i = 0; i < M; i++)
		CHECK_RC(tg_enq(d, RCV, qpa, (uint64_t)s << 32 | i), 0);
	CHECK_RC(tg_fence(d, RCV), 0);
	CHECK_RC(tg_ctx_status(d), 0);
	CHECK_RC(tg_enq_wait(d, T_ENQ_NS, NULL), 0);
	CHECK(tg_enq_ticket(d) == M, "%" PRIu64 " tickets for %u REQs", tg_enq_ticket(d), M);
	tg_close(d);
	return NULL;
}

static void *consumer(void *arg)
{
	unsigned c = (unsigned)(uintptr_t)arg;
	struct tg_dev *d = open_node(RCV);
	struct tg_queue *q = tg_queue_attach(d, qpa);
	int64_t last[SENDERS];

	REQUIRE(q, "tg_queue_attach: %s", tg_strerror(-errno));
	for (unsigned s = 0; s < SENDERS; s++)
		last[s] = -1;
	while (atomic_load(&taken) < (uint64_t)SENDERS * M) {
		uint64_t v;
		int rc = tg_deq_wait(q, &v, 8, 20000000ull);
		unsigned s, i;

		if (rc == -ETIMEDOUT)
			continue;
		if (rc) {
			CHECK(0, "consumer %u: %s", c, tg_strerror(rc));
			break;
		}
		s = (unsigned)(v >> 32);
		i = (unsigned)v;
		if (s >= SENDERS || i >= M) {
			CHECK(0, "consumer %u: bad entry %#" PRIx64, c, v);
			continue;
		}
		if (atomic_fetch_add(&seen[s][i], 1))
			atomic_fetch_add(&dups, 1);
		/* dequeues are serialized and in order: each consumer sees a
		 * sender's entries in increasing order */
		if ((int64_t)i <= last[s])
			atomic_fetch_add(&disorder, 1);
		last[s] = i;
		atomic_fetch_add(&taken_by[c], 1);
		atomic_fetch_add(&taken, 1);
	}
	tg_queue_close(q);
	tg_close(d);
	return NULL;
}

int main(void)
{
	const char *bin = getenv("TG_SIM_BIN") ? getenv("TG_SIM_BIN") : TG_SIM_BIN;
	pthread_t snd[SENDERS], con[CONSUMERS];
	struct tg_dev *owner;
	struct tg_queue *q;
	int st;
	uint64_t missing = 0;

	signal(SIGALRM, t_on_alarm_child);
	alarm(TIMEOUT_S);
	if (access(bin, X_OK)) {
		printf("test_enq_tgsim: skip (no %s)\n", bin);
		return T_SKIP;
	}
	snprintf(name, sizeof(name), "enqtest-%d", (int)getpid());
	{
		char *argv[] = { (char *)bin, "--nodes", "3", "--name", name,
				 "--link-bytes-per-cycle", "8", "--link-latency", "2", NULL };

		t_start_sim(argv);
	}

	owner = open_node(RCV);
	/* smallest buffers: 15 entries each, so the queue grows and shrinks */
	q = tg_queue_open(owner, TG_Q_MIN_LOG2, 8);
	REQUIRE(q, "tg_queue_open: %s", tg_strerror(-errno));
	qpa = tg_queue_paddr(q);
	for (unsigned c = 0; c < CONSUMERS; c++)
		REQUIRE(pthread_create(&con[c], NULL, consumer, (void *)(uintptr_t)c) == 0, "thread");
	for (unsigned s = 0; s < SENDERS; s++)
		REQUIRE(pthread_create(&snd[s], NULL, sender, (void *)(uintptr_t)s) == 0, "thread");
	for (unsigned s = 0; s < SENDERS; s++)
		pthread_join(snd[s], NULL);
	for (unsigned c = 0; c < CONSUMERS; c++)
		pthread_join(con[c], NULL);

	for (unsigned s = 0; s < SENDERS; s++)
		for (unsigned i = 0; i < M; i++)
			missing += atomic_load(&seen[s][i]) == 0;
	CHECK(missing == 0, "%" PRIu64 " entries never taken", missing);
	CHECK(atomic_load(&dups) == 0, "%" PRIu64 " entries taken twice", atomic_load(&dups));
	CHECK(atomic_load(&disorder) == 0, "%" PRIu64 " entries out of order",
	      atomic_load(&disorder));
	printf("%u entries taken by %u consumers:", SENDERS * M, CONSUMERS);
	for (unsigned c = 0; c < CONSUMERS; c++)
		printf(" %u", atomic_load(&taken_by[c]));
	printf("\n");
	{
		uint64_t ov = 0;

		CHECK_RC(tg_csr_read(owner, TG_CSR_REG_REQ_REFUSED, &ov), 0);
		printf("REQs refused while the queue was full: %" PRIu64 "\n", ov);
	}
	tg_queue_close(q);
	tg_close(owner);
	kill(t_child_pid, SIGTERM);
	waitpid(t_child_pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "tg-sim exit status %d", st);
	return t_done("test_enq_tgsim");
}
