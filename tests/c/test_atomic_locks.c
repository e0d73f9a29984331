/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: a CAS spin lock and a fetch-and-increment ticket lock on node 4 of a real tg-sim, taken by threads on nodes 0..4, guard a multi-word structure. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tg_test.h"

#ifndef TG_SIM_BIN
#define TG_SIM_BIN "build/bin/tg-sim"
#endif

/*
 * Node OWNER holds both locks and the words they protect.  One worker
 * thread per node 0..4, each with its own device; the worker on OWNER
 * reaches the words through its own NIC (node = its own id), so its
 * requests go out through the switch and come back and meet the remote
 * ones in the same engine.
 *
 * Each lock guards a group of words:
 *   holder   id + 1 of the worker inside the critical section, else 0
 *   counter  critical sections done
 *   sum      sum of id + 1 over them
 *   check    mix(counter, sum)
 * A critical section reads the holder (must be 0), writes its id, reads
 * counter/sum/check with one tg_read, writes the updated three with one
 * tg_write, reads the holder again (must still be its id) and clears it:
 * a non-atomic read-modify-write of several words that loses updates and
 * trips the holder check as soon as two workers overlap.
 *
 * $TG_LOCKS_BROKEN replaces the atomic acquire by a plain read, then
 * write: "cas" for the spin lock, "ticket" for the ticket lock, "1" or
 * "all" for both.  The test must then fail.
 */

#define NODES      5u
#define OWNER      4u
#define WORKERS    5u          /* nodes 0..4 */
#define DEF_ITER   100u        /* critical sections per worker and lock; $TG_LOCKS_ITER */
#define TIMEOUT_S  240u
#define MAX_MSGS   20u         /* failure messages printed per kind */
#if defined(__SANITIZE_ADDRESS__)
#undef DEF_ITER
#define DEF_ITER   60u
#endif

/* word offsets in the owner's region: one 64-byte block per word, the
 * three data words in one block so they travel in one read and one write */
#define SPIN_LOCK     0u
#define SPIN_HOLDER   64u
#define SPIN_DATA     128u
#define TKT_NEXT      512u
#define TKT_SERVING   576u
#define TKT_HOLDER    640u
#define TKT_DATA      704u

enum { LOCK_SPIN, LOCK_TICKET, NLOCKS };

struct group {
	const char *name;
	uint64_t holder, data;       /* offsets */
};

static const struct group groups[NLOCKS] = {
	[LOCK_SPIN] = { "CAS spin lock", SPIN_HOLDER, SPIN_DATA },
	[LOCK_TICKET] = { "ticket lock", TKT_HOLDER, TKT_DATA },
};

struct worker {
	unsigned id;                 /* = node */
	pthread_t th;
	struct tg_dev *dev;
	uint64_t *tickets;           /* ticket of each ticket-lock critical section */
	uint64_t wait[NLOCKS];       /* simulated cycles spent acquiring */
	uint64_t hold[NLOCKS];       /* ... in the critical section and the release */
	uint64_t retries;            /* failed CAS attempts */
};

static pid_t sim_pid;
static char name[64];
static uint64_t base;            /* paddr of the region on OWNER */
static unsigned iter = DEF_ITER;
static int broken[NLOCKS];
static struct worker workers[WORKERS];
static pthread_barrier_t bar;
static atomic_int stop;          /* a worker hit an error: everyone leaves */
static _Atomic uint64_t overlaps[NLOCKS], torn[NLOCKS], fifo_bad[NLOCKS], release_bad[NLOCKS];
static _Atomic uint64_t errors, msgs;

static void kill_sim(void)
{
	if (sim_pid > 0)
		kill(sim_pid, SIGKILL);
}

static void on_alarm(int sig)
{
	static const char msg[] = "test_atomic_locks: timed out\n";

	(void)sig;
	kill_sim();
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(T_FAIL);
	_exit(T_FAIL);
}

/* Count a failure of kind `ctr` and print the first few. */
#define FAIL_ON(ctr, ...)                                                       \
	do {                                                                    \
		atomic_fetch_add(&(ctr), 1);                                    \
		if (atomic_fetch_add(&msgs, 1) < MAX_MSGS) {                    \
			fprintf(stderr, "test_atomic_locks: ");                 \
			fprintf(stderr, __VA_ARGS__);                           \
			fputc('\n', stderr);                                    \
		}                                                               \
	} while (0)

/* A libtg call inside a worker: on error count it, stop everyone, return it. */
#define TRY(w, expr)                                                            \
	do {                                                                    \
		int rc_ = (expr);                                               \
		if (rc_) {                                                      \
			FAIL_ON(errors, "node %u: %s: %s", (w)->id, #expr,      \
				tg_strerror(rc_));                              \
			atomic_store(&stop, 1);                                 \
			return rc_;                                             \
		}                                                               \
	} while (0)

static uint64_t mix(uint64_t counter, uint64_t sum)
{
	uint64_t z = counter * 0x9e3779b97f4a7c15ULL ^ sum;

	z ^= z >> 31;
	return z * 0xbf58476d1ce4e5b9ULL;
}

static struct tg_dev *open_node(unsigned node)
{
	char dev[96];
	struct tg_dev *d;

	snprintf(dev, sizeof(dev), "sim:%s:%u", name, node);
	d = tg_open(dev, 0);
	REQUIRE(d, "tg_open(%s): %s", dev, tg_strerror(-errno));
	return d;
}

static int rd(struct tg_dev *d, uint64_t off, uint64_t *v)
{
	return tg_read(d, OWNER, base + off, v, 8);
}

static int wr(struct tg_dev *d, uint64_t off, uint64_t v)
{
	return tg_write(d, OWNER, base + off, &v, 8);
}

/*
 * The critical section.  *entry gets the counter found on entry.  It only
 * reads and writes plain words; everything that makes it safe is in the
 * lock around it.
 */
static int critical(struct worker *w, unsigned lk, uint64_t *entry)
{
	const struct group *g = &groups[lk];
	uint64_t me = w->id + 1, h, d[3];

	TRY(w, rd(w->dev, g->holder, &h));
	if (h)
		FAIL_ON(overlaps[lk], "%s: node %u entered while node %" PRIu64 " was inside",
			g->name, w->id, h - 1);
	TRY(w, wr(w->dev, g->holder, me));
	TRY(w, tg_read(w->dev, OWNER, base + g->data, d, sizeof(d)));
	if (d[2] != mix(d[0], d[1]))
		FAIL_ON(torn[lk], "%s: node %u found counter %" PRIu64 ", sum %" PRIu64
			" and a check word of another state", g->name, w->id, d[0], d[1]);
	*entry = d[0];
	d[0]++;
	d[1] += me;
	d[2] = mix(d[0], d[1]);
	TRY(w, tg_write(w->dev, OWNER, base + g->data, d, sizeof(d)));
	TRY(w, rd(w->dev, g->holder, &h));
	if (h != me)
		FAIL_ON(overlaps[lk], "%s: node %u found holder %" PRIu64 " on its way out",
			g->name, w->id, h);
	TRY(w, wr(w->dev, g->holder, 0));
	return 0;
}

/*
 * Test-and-test-and-set: read the lock word until it is free (reads do
 * not disturb the holder's atomics), then try CAS 0 -> id + 1.
 *
 * Release is tg_swap(lock, 0).  Memory ordering: the critical section's
 * tg_writes and the swap are requests of one device to one node, which
 * the NIC performs in call order, and an atomic sees (is performed after)
 * every earlier write of its device to that node.  So when the lock word
 * reads 0 the protected words are already in OWNER's memory, and the next
 * holder's reads, performed by the same NIC after its successful CAS,
 * find them.  No fence is needed; the swap's old value also tells us
 * nobody else wrote the lock word while we held it.
 */
static int spin_acquire(struct worker *w)
{
	uint64_t me = w->id + 1, v, old;

	for (;;) {
		do {
			if (atomic_load_explicit(&stop, memory_order_relaxed))
				return -ECANCELED;
			TRY(w, rd(w->dev, SPIN_LOCK, &v));
		} while (v);
		if (broken[LOCK_SPIN]) {
			/* the broken variant: another node can slip in between */
			TRY(w, wr(w->dev, SPIN_LOCK, me));
			return 0;
		}
		TRY(w, tg_cas(w->dev, OWNER, base + SPIN_LOCK, 0, me, &old));
		if (old == 0)
			return 0;
		w->retries++;
	}
}

static int spin_release(struct worker *w)
{
	uint64_t old;

	TRY(w, tg_swap(w->dev, OWNER, base + SPIN_LOCK, 0, &old));
	if (old != w->id + 1)
		FAIL_ON(release_bad[LOCK_SPIN], "CAS spin lock: node %u released a lock word of %"
			PRIu64, w->id, old);
	return 0;
}

/*
 * Ticket lock: take a ticket with fetch-and-increment of `next`, wait
 * until `serving` reaches it, release with fetch-and-add(serving, 1) (an
 * atomic, so ordered after the critical section's writes as above).
 * Waiting uses "serving < ticket" rather than "!=", so that a broken run
 * handing out a ticket twice (serving then skips past a waiter) ends
 * instead of hanging; serving > ticket is counted as a FIFO violation.
 */
static int ticket_acquire(struct worker *w, uint64_t *ticket)
{
	uint64_t t, s;

	if (broken[LOCK_TICKET]) {
		TRY(w, rd(w->dev, TKT_NEXT, &t));
		TRY(w, wr(w->dev, TKT_NEXT, t + 1));
	} else {
		TRY(w, tg_fetch_inc(w->dev, OWNER, base + TKT_NEXT, &t));
	}
	*ticket = t;
	for (;;) {
		if (atomic_load_explicit(&stop, memory_order_relaxed))
			return -ECANCELED;
		TRY(w, rd(w->dev, TKT_SERVING, &s));
		if ((int64_t)(s - t) >= 0)
			break;
	}
	if (s != t)
		FAIL_ON(fifo_bad[LOCK_TICKET], "ticket lock: node %u with ticket %" PRIu64
			" entered at serving %" PRIu64, w->id, t, s);
	return 0;
}

static int ticket_release(struct worker *w, uint64_t ticket)
{
	uint64_t old;

	TRY(w, tg_faa(w->dev, OWNER, base + TKT_SERVING, 1, &old));
	if (old != ticket)
		FAIL_ON(release_bad[LOCK_TICKET], "ticket lock: node %u released serving %" PRIu64
			" with ticket %" PRIu64, w->id, old, ticket);
	return 0;
}

static int run_spin(struct worker *w)
{
	uint64_t entry, c0, c1;
	int rc;

	for (unsigned i = 0; i < iter; i++) {
		c0 = tg_cycles(w->dev);
		if ((rc = spin_acquire(w)))
			return rc;
		c1 = tg_cycles(w->dev);
		if ((rc = critical(w, LOCK_SPIN, &entry)))
			return rc;
		if ((rc = spin_release(w)))
			return rc;
		w->wait[LOCK_SPIN] += c1 - c0;
		w->hold[LOCK_SPIN] += tg_cycles(w->dev) - c1;
	}
	return 0;
}

static int run_ticket(struct worker *w)
{
	uint64_t t, entry, c0, c1;
	int rc;

	for (unsigned i = 0; i < iter; i++) {
		c0 = tg_cycles(w->dev);
		if ((rc = ticket_acquire(w, &t)))
			return rc;
		c1 = tg_cycles(w->dev);
		w->tickets[i] = t;
		if ((rc = critical(w, LOCK_TICKET, &entry)))
			return rc;
		/* FIFO: critical sections run in ticket order, so the one with
		 * ticket t is the t-th and finds the counter at t */
		if (entry != t)
			FAIL_ON(fifo_bad[LOCK_TICKET], "ticket lock: node %u with ticket %" PRIu64
				" found counter %" PRIu64, w->id, t, entry);
		if ((rc = ticket_release(w, t)))
			return rc;
		w->wait[LOCK_TICKET] += c1 - c0;
		w->hold[LOCK_TICKET] += tg_cycles(w->dev) - c1;
	}
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	w->dev = open_node(w->id);
	pthread_barrier_wait(&bar);          /* devices open */

	pthread_barrier_wait(&bar);          /* spin lock phase */
	if (!atomic_load(&stop))
		run_spin(w);
	pthread_barrier_wait(&bar);

	pthread_barrier_wait(&bar);          /* ticket lock phase */
	if (!atomic_load(&stop))
		run_ticket(w);
	pthread_barrier_wait(&bar);

	tg_close(w->dev);
	return NULL;
}

static void parse_env(void)
{
	const char *b = getenv("TG_LOCKS_BROKEN"), *n = getenv("TG_LOCKS_ITER");

	if (n && strtoul(n, NULL, 0) > 0)
		iter = (unsigned)strtoul(n, NULL, 0);
	if (!b || !*b || !strcmp(b, "0"))
		return;
	if (!strcmp(b, "cas")) {
		broken[LOCK_SPIN] = 1;
	} else if (!strcmp(b, "ticket")) {
		broken[LOCK_TICKET] = 1;
	} else {
		broken[LOCK_SPIN] = 1;
		broken[LOCK_TICKET] = 1;
	}
	printf("TG_LOCKS_BROKEN: plain read-then-write acquire for the%s%s\n",
	       broken[LOCK_SPIN] ? " spin lock" : "", broken[LOCK_TICKET] ? " ticket lock" : "");
}

/* Run one phase between the workers' barriers; print its figures. */
static void phase(struct tg_dev *owner, unsigned lk)
{
	uint64_t c0, c1, n = (uint64_t)WORKERS * iter;
	double t0, t1;

	pthread_barrier_wait(&bar);
	t0 = t_now_s();
	c0 = tg_cycles(owner);
	pthread_barrier_wait(&bar);
	c1 = tg_cycles(owner);
	t1 = t_now_s();
	printf("%-14s %" PRIu64 " critical sections: %.2f s wall, %.1f per s; %" PRIu64
	       " cycles, %.0f cycles each\n", groups[lk].name, n, t1 - t0,
	       (double)n / (t1 - t0), c1 - c0, (double)(c1 - c0) / (double)n);
	printf("  mean cycles by node, acquire / critical section + release:");
	for (unsigned k = 0; k < WORKERS; k++)
		printf(" %u: %.0f/%.0f", k, (double)workers[k].wait[lk] / iter,
		       (double)workers[k].hold[lk] / iter);
	printf("\n");
}

/* The words of group lk after the phase. */
static void check_group(struct tg_dev *owner, unsigned lk)
{
	const struct group *g = &groups[lk];
	uint64_t d[3] = { 0 }, h = ~0ULL, want_sum = 0, n = (uint64_t)WORKERS * iter;

	for (unsigned k = 0; k < WORKERS; k++)
		want_sum += (uint64_t)(k + 1) * iter;
	CHECK_RC(tg_read(owner, OWNER, base + g->data, d, sizeof(d)), 0);
	CHECK_RC(rd(owner, g->holder, &h), 0);
	CHECK(d[0] == n, "%s: counter %" PRIu64 ", want %" PRIu64 " (%" PRIu64 " updates lost)",
	      g->name, d[0], n, n - d[0]);
	CHECK(d[1] == want_sum, "%s: sum of ids %" PRIu64 ", want %" PRIu64, g->name, d[1],
	      want_sum);
	CHECK(d[2] == mix(d[0], d[1]), "%s: check word does not match", g->name);
	CHECK(h == 0, "%s: holder %" PRIu64 " after the phase", g->name, h);
	CHECK(atomic_load(&overlaps[lk]) == 0, "%s: %" PRIu64 " overlapping critical sections",
	      g->name, atomic_load(&overlaps[lk]));
	CHECK(atomic_load(&torn[lk]) == 0, "%s: %" PRIu64 " inconsistent states seen", g->name,
	      atomic_load(&torn[lk]));
	CHECK(atomic_load(&release_bad[lk]) == 0, "%s: %" PRIu64 " releases of a lock not held",
	      g->name, atomic_load(&release_bad[lk]));
}

/* Tickets: each of 0 .. WORKERS*iter-1 handed out once; the lock words
 * at rest. */
static void check_tickets(struct tg_dev *owner)
{
	uint64_t n = (uint64_t)WORKERS * iter, dup = 0, bad = 0, missing = 0, next = 0, serv = 0;
	uint8_t *seen = calloc(n, 1);

	REQUIRE(seen, "calloc");
	for (unsigned k = 0; k < WORKERS; k++)
		for (unsigned i = 0; i < iter; i++) {
			uint64_t t = workers[k].tickets[i];

			if (t >= n)
				bad++;
			else if (seen[t]++)
				dup++;
			/* one device's fetch-and-increments come back increasing */
			if (i && t <= workers[k].tickets[i - 1])
				bad++;
		}
	for (uint64_t t = 0; t < n; t++)
		missing += !seen[t];
	CHECK(dup == 0 && bad == 0 && missing == 0,
	      "tickets: %" PRIu64 " handed out twice, %" PRIu64 " out of range or order, %" PRIu64
	      " never handed out", dup, bad, missing);
	CHECK(atomic_load(&fifo_bad[LOCK_TICKET]) == 0, "ticket lock: %" PRIu64
	      " critical sections out of ticket order", atomic_load(&fifo_bad[LOCK_TICKET]));
	CHECK_RC(rd(owner, TKT_NEXT, &next), 0);
	CHECK_RC(rd(owner, TKT_SERVING, &serv), 0);
	CHECK(next == n && serv == n, "ticket lock at rest: next %" PRIu64 ", serving %" PRIu64
	      ", want %" PRIu64, next, serv, n);
	free(seen);
}

int main(void)
{
	const char *bin = getenv("TG_SIM_BIN") ? getenv("TG_SIM_BIN") : TG_SIM_BIN;
	struct tg_dev *owner;
	struct tg_mr *mr;
	static const uint64_t zero[512];
	uint64_t lock = ~0ULL, retries = 0;
	int fds[2], st;

	signal(SIGALRM, on_alarm);
	alarm(TIMEOUT_S);
	if (access(bin, X_OK)) {
		printf("test_atomic_locks: skip (no %s)\n", bin);
		return T_SKIP;
	}
	parse_env();
	snprintf(name, sizeof(name), "locktest-%d", (int)getpid());
	REQUIRE(pipe(fds) == 0, "pipe");
	sim_pid = fork();
	REQUIRE(sim_pid >= 0, "fork");
	if (sim_pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		execl(bin, bin, "--nodes", "5", "--name", name, "--quiet", (char *)NULL);
		_exit(127);
	}
	atexit(kill_sim);   /* a REQUIRE leaves through exit() */
	close(fds[1]);
	REQUIRE(t_wait_ready(fds[0]) == 0, "tg-sim start");

	owner = open_node(OWNER);
	mr = tg_mr_alloc(owner, 4096, TG_ACCESS_ALL);
	REQUIRE(mr, "tg_mr_alloc: %s", tg_strerror(-errno));
	base = tg_mr_paddr(mr);
	/* a region holds whatever memory held: start from zero, and make the
	 * check words match their (zero) counters */
	REQUIRE(tg_write(owner, OWNER, base, zero, sizeof(zero)) == 0, "clear");
	for (unsigned lk = 0; lk < NLOCKS; lk++) {
		uint64_t d[3] = { 0, 0, mix(0, 0) };

		REQUIRE(tg_write(owner, OWNER, base + groups[lk].data, d, sizeof(d)) == 0, "init");
	}
	REQUIRE(tg_fence(owner, OWNER) == 0, "fence");

	REQUIRE(pthread_barrier_init(&bar, NULL, WORKERS + 1) == 0, "barrier");
	for (unsigned k = 0; k < WORKERS; k++) {
		workers[k].id = k;
		workers[k].tickets = calloc(iter, sizeof(uint64_t));
		REQUIRE(workers[k].tickets, "calloc");
		REQUIRE(pthread_create(&workers[k].th, NULL, worker_main, &workers[k]) == 0,
			"thread");
	}
	pthread_barrier_wait(&bar);
	printf("%u workers (nodes 0..%u, node %u through its own NIC), %u critical sections "
	       "each per lock\n", WORKERS, WORKERS - 1, OWNER, iter);
	phase(owner, LOCK_SPIN);
	phase(owner, LOCK_TICKET);
	for (unsigned k = 0; k < WORKERS; k++) {
		pthread_join(workers[k].th, NULL);
		retries += workers[k].retries;
	}
	printf("spin lock: %" PRIu64 " failed CAS attempts\n", retries);

	CHECK(atomic_load(&errors) == 0, "%" PRIu64 " libtg calls failed", atomic_load(&errors));
	check_group(owner, LOCK_SPIN);
	CHECK_RC(rd(owner, SPIN_LOCK, &lock), 0);
	CHECK(lock == 0, "spin lock word %" PRIu64 " at rest", lock);
	check_group(owner, LOCK_TICKET);
	check_tickets(owner);
	CHECK_RC(tg_ctx_status(owner), 0);

	for (unsigned k = 0; k < WORKERS; k++)
		free(workers[k].tickets);
	pthread_barrier_destroy(&bar);
	tg_mr_free(mr);
	tg_close(owner);
	kill(sim_pid, SIGTERM);
	waitpid(sim_pid, &st, 0);
	sim_pid = 0;
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "tg-sim exit status %d", st);
	return t_done("test_atomic_locks");
}
