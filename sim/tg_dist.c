/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Distributed simulation over MPI: frames and time messages between ranks, conservative synchronization, failure detection. */
#define _GNU_SOURCE
#include <errno.h>
#include <mpi.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tg_dist.h"

#define DEFAULT_TIMEOUT_MS  5000u
#define HEARTBEAT_S         0.2      /* a waiting rank says it is alive this often */
#define STARTUP_FACTOR      6u       /* a run's start may take this many timeouts */
#define TAG_SYNC            1        /* batches: a time (or the end) and frames */
#define TAG_FILE            2        /* files gathered at the end of a run */
#define NSEND               16u      /* batches in flight per peer */
#define SPIN_POLLS          256u     /* polls before a waiting rank yields its core */
#define YIELD_POLLS         1000u    /* ... and before it naps between polls */
#define NAP_NS              20000L
#define FILE_CHUNK          (1 << 20)
#define MIN_FRAME           14u      /* an Ethernet header */
#define MAX_FRAME           2048u

enum { MSG_TIME = 1, MSG_BYE = 2 };

/*
 * A batch: one MPI message per announcement to each peer, in host byte
 * order (the ranks share one byte order; MPI_BYTE carries it as is).
 * TIME(time) says: the sender has executed every cycle before `time`, and
 * the frames it sent in them are in this batch or an earlier one (MPI
 * keeps one sender's messages in order).  BYE(time): it stopped at `time`.
 */
struct msg_hdr {
	uint32_t type;
	uint32_t up;            /* nodes brought up, as of `time` */
	uint64_t time;
	uint32_t nframes;
	uint32_t nodes;
	uint64_t run;           /* runs started on this connection */
};

struct msg_frame {
	uint16_t src, dst, len, flags;  /* flags bit 0: hold back at the output */
	uint64_t due, seq;
};                              /* then len bytes, padded to 8 */

struct outbuf {
	MPI_Request req;
	uint8_t *buf;
	size_t len, cap;
	uint32_t nframes;
};

struct peer {
	uint64_t time;                  /* it has executed every cycle before this */
	unsigned up, up_prev;           /* its bring-up count, and the one before */
	uint64_t up_since;              /* cycle it announced `up` first */
	int gone;                       /* it ended this run */
	double heard;                   /* monotonic seconds of its last message */
	struct outbuf out[NSEND];       /* out[cur] collects the next batch */
	unsigned cur;
};

struct dist_mpi {
	struct tg_dist base;            /* first: tg_sim.c's view */
	MPI_Comm comm;
	unsigned ranks, self, nodes;
	char (*host)[TG_DIST_HOST_MAX];
	uint8_t *local;
	uint8_t owner[TG_SIM_MAX_NODES];
	unsigned timeout_ms;
	volatile const sig_atomic_t *stop;
	struct peer *peer;
	uint64_t run;
	int running, broken;
	uint64_t sent_time;             /* last cycle announced (+1; 0: none) */
	unsigned sent_up;               /* bring-up count announced with it */
	uint64_t now;                   /* cycle being synchronized */
	unsigned lookahead;             /* of that sync */
	tg_dist_deliver_fn deliver;
	void *arg;
	uint8_t *rbuf;
	size_t rcap;
	int waiting;                    /* rank waited for, or -1 */
	uint64_t nmsgs;
	double wait_s;
	char err[256];
};

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int fail(struct dist_mpi *d, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct dist_mpi *d, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->err, sizeof(d->err), fmt, ap);
	va_end(ap);
	if (rc != -EPIPE && rc != -EINTR)
		d->broken = 1;   /* the connection cannot end the run in step */
	return rc;
}

/* An MPI call failed; r: the peer it was for, or -1. */
static int mpi_fail(struct dist_mpi *d, int mrc, const char *call, int r)
{
	char s[MPI_MAX_ERROR_STRING];
	int n = 0;

	if (MPI_Error_string(mrc, s, &n) != MPI_SUCCESS)
		snprintf(s, sizeof(s), "MPI error %d", mrc);
	if (r >= 0)
		return fail(d, -EIO, "%s with rank %d (%s): %s", call, r, d->host[r], s);
	return fail(d, -EIO, "%s: %s", call, s);
}

static struct dist_mpi *dm(struct tg_dist *d)
{
	return (struct dist_mpi *)d;
}

static const struct dist_mpi *cdm(const struct tg_dist *d)
{
	return (const struct dist_mpi *)d;
}

/* Whether a wait must end: *stop set, or a peer silent too long.  0 or
 * -errno with the reason. */
static int wait_check(struct dist_mpi *d, unsigned r, double now, const char *what)
{
	/* the end of a run is waited for even after a signal: the peers
	 * stop too, and say so */
	if (d->stop && *d->stop && d->running)
		return fail(d, -EINTR, "interrupted while %s waits for rank %u (%s)", what, r,
			    d->host[r]);
	if (now - d->peer[r].heard > d->timeout_ms * 1e-3)
		return fail(d, -ETIMEDOUT, "rank %u (%s) silent for %.1f s while %s waits for it: "
			    "it died or hangs", r, d->host[r], now - d->peer[r].heard, what);
	return 0;
}

/* Pause between polls of a wait: spin, then yield the core, then nap. */
static void pause_poll(unsigned polls)
{
	if (polls < SPIN_POLLS)
		return;
	if (polls < YIELD_POLLS) {
		sched_yield();
	} else {
		struct timespec ts = { 0, NAP_NS };

		nanosleep(&ts, NULL);
	}
}

/* ---- receiving ---------------------------------------------------------- */

static int handle(struct dist_mpi *d, unsigned r, const uint8_t *buf, size_t n)
{
	struct peer *pr = &d->peer[r];
	struct msg_hdr h;
	size_t off = sizeof(h);

	if (n < sizeof(h))
		return fail(d, -EBADMSG, "rank %u (%s) sent %zu bytes, shorter than a header", r,
			    d->host[r], n);
	memcpy(&h, buf, sizeof(h));
	if ((h.type != MSG_TIME && h.type != MSG_BYE) || h.nodes != d->nodes || h.run != d->run)
		return fail(d, -EPROTO, "rank %u (%s) sent a message of type %u for %u nodes in "
			    "run %llu; this rank runs %u nodes in run %llu", r, d->host[r], h.type,
			    h.nodes, (unsigned long long)h.run, d->nodes,
			    (unsigned long long)d->run);
	if (pr->gone)
		return fail(d, -EPROTO, "rank %u (%s) sent a message after it stopped", r,
			    d->host[r]);
	if (h.time < pr->time)
		return fail(d, -EPROTO, "rank %u (%s) went back in time, from cycle %llu to %llu",
			    r, d->host[r], (unsigned long long)pr->time,
			    (unsigned long long)h.time);
	pr->heard = mono_s();
	for (uint32_t i = 0; i < h.nframes; i++) {
		struct msg_frame f;
		struct tg_dist_frame df;
		int rc;

		if (n - off < sizeof(f))
			return fail(d, -EBADMSG, "rank %u (%s) sent a batch cut short", r, d->host[r]);
		memcpy(&f, buf + off, sizeof(f));
		off += sizeof(f);
		if (f.len < MIN_FRAME || f.len > MAX_FRAME || n - off < f.len)
			return fail(d, -EBADMSG, "rank %u (%s) sent a %u-byte frame", r, d->host[r],
				    f.len);
		if (f.src >= d->nodes || d->owner[f.src] != r || f.dst >= d->nodes ||
		    d->owner[f.dst] != d->self)
			return fail(d, -EPROTO, "rank %u (%s) sent a frame from node %u to node %u: "
				    "not its node, or not one of ours", r, d->host[r], f.src, f.dst);
		if (d->running && f.due < d->now)
			return fail(d, -EPROTO, "rank %u (%s) sent a frame due in cycle %llu, already "
				    "past (cycle %llu): it broke the lookahead", r, d->host[r],
				    (unsigned long long)f.due, (unsigned long long)d->now);
		df = (struct tg_dist_frame){ .src = f.src, .dst = f.dst, .due = f.due, .seq = f.seq,
					     .reorder = f.flags & 1u, .len = f.len,
					     .data = buf + off };
		off += (f.len + 7u) & ~7u;
		if (off > n)
			off = n;
		/* after this rank stopped, frames are due past its end */
		if (d->running && (rc = d->deliver(d->arg, &df)))
			return fail(d, rc, "taking a frame from rank %u: %s", r, strerror(-rc));
	}
	pr->time = h.time;
	if (h.type == MSG_BYE) {
		pr->gone = 1;
	} else if (h.up != pr->up) {
		pr->up_prev = pr->up;
		pr->up = h.up;
		pr->up_since = h.time;
	}
	return 0;
}

/* Take every batch that has arrived.  A batch that has begun to arrive
 * is received without blocking: the wait for its rest ends like any
 * other (wait_check).  0 or -errno. */
static int poll_in(struct dist_mpi *d)
{
	for (;;) {
		MPI_Status st;
		MPI_Message msg;
		MPI_Request req;
		unsigned polls = 0, r;
		int flag = 0, n = 0, mrc, rc;

		mrc = MPI_Improbe(MPI_ANY_SOURCE, TAG_SYNC, d->comm, &flag, &msg, &st);
		if (mrc != MPI_SUCCESS)
			return mpi_fail(d, mrc, "MPI_Improbe", -1);
		if (!flag)
			return 0;
		r = (unsigned)st.MPI_SOURCE;
		if (r >= d->ranks || r == d->self)
			return fail(d, -EPROTO, "a message from rank %d: not a peer", st.MPI_SOURCE);
		mrc = MPI_Get_count(&st, MPI_BYTE, &n);
		if (mrc != MPI_SUCCESS || n < 0)
			return mrc != MPI_SUCCESS ? mpi_fail(d, mrc, "MPI_Get_count", (int)r) :
				fail(d, -EBADMSG, "rank %u (%s) sent a batch of no size", r,
				     d->host[r]);
		if ((size_t)n > d->rcap) {
			uint8_t *b = realloc(d->rbuf, (size_t)n);

			if (!b)
				return fail(d, -ENOMEM, "out of memory for a %d-byte batch", n);
			d->rbuf = b;
			d->rcap = (size_t)n;
		}
		/* its message has begun: the peer is alive */
		d->peer[r].heard = mono_s();
		mrc = MPI_Imrecv(d->rbuf, n, MPI_BYTE, &msg, &req);
		if (mrc != MPI_SUCCESS)
			return mpi_fail(d, mrc, "MPI_Imrecv", (int)r);
		for (;;) {
			flag = 0;
			mrc = MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
			if (mrc != MPI_SUCCESS)
				return mpi_fail(d, mrc, "MPI_Test", (int)r);
			if (flag)
				break;
			if (polls++ >= SPIN_POLLS && (rc = wait_check(d, r, mono_s(), "a batch")))
				return rc;
			pause_poll(polls);
		}
		rc = handle(d, r, d->rbuf, (size_t)n);
		if (rc)
			return rc;
	}
}

/* ---- sending ------------------------------------------------------------ */

static int reserve(struct dist_mpi *d, struct outbuf *o, size_t more)
{
	size_t need = o->len + more;

	if (need > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		uint8_t *b;

		while (cap < need)
			cap *= 2;
		b = realloc(o->buf, cap);
		if (!b)
			return fail(d, -ENOMEM, "out of memory for a batch");
		o->buf = b;
		o->cap = cap;
	}
	return 0;
}

/* Wait until send buffer o is free, taking arrivals meanwhile (a peer
 * may need ours to take its). */
static int send_done(struct dist_mpi *d, unsigned r, struct outbuf *o)
{
	unsigned polls = 0;

	while (o->req != MPI_REQUEST_NULL) {
		int flag = 0, mrc = MPI_Test(&o->req, &flag, MPI_STATUS_IGNORE), rc;

		if (mrc != MPI_SUCCESS)
			return mpi_fail(d, mrc, "MPI_Test", (int)r);
		if (flag)
			break;
		if ((rc = poll_in(d)))
			return rc;
		if (polls++ >= SPIN_POLLS && (rc = wait_check(d, r, mono_s(), "a send")))
			return rc;
		pause_poll(polls);
	}
	return 0;
}

/* Fresh batch in o: room for its header. */
static int batch_reset(struct dist_mpi *d, struct outbuf *o)
{
	o->len = 0;
	o->nframes = 0;
	if (reserve(d, o, sizeof(struct msg_hdr)))
		return -ENOMEM;
	o->len = sizeof(struct msg_hdr);
	return 0;
}

/* Send peer r the batch collected so far with a TIME or BYE. */
static int send_batch(struct dist_mpi *d, unsigned r, uint32_t type, uint64_t time, unsigned up)
{
	struct peer *pr = &d->peer[r];
	struct outbuf *o = &pr->out[pr->cur];
	struct msg_hdr h = { .type = type, .up = up, .time = time, .nframes = o->nframes,
			     .nodes = d->nodes, .run = d->run };
	int mrc, rc;

	memcpy(o->buf, &h, sizeof(h));
	mrc = MPI_Isend(o->buf, (int)o->len, MPI_BYTE, (int)r, TAG_SYNC, d->comm, &o->req);
	if (mrc != MPI_SUCCESS)
		return mpi_fail(d, mrc, "MPI_Isend", (int)r);
	d->nmsgs++;
	pr->cur = (pr->cur + 1) % NSEND;
	o = &pr->out[pr->cur];
	if ((rc = send_done(d, r, o)))
		return rc;
	return batch_reset(d, o);
}

static int announce(struct dist_mpi *d, uint64_t t, unsigned up)
{
	for (unsigned r = 0; r < d->ranks; r++) {
		int rc;

		if (r != d->self && (rc = send_batch(d, r, MSG_TIME, t, up)))
			return rc;
	}
	d->sent_time = t + 1;
	d->sent_up = up;
	return 0;
}

/* ---- the operations ----------------------------------------------------- */

static unsigned op_ranks(const struct tg_dist *d)
{
	return cdm(d)->ranks;
}

static unsigned op_self(const struct tg_dist *d)
{
	return cdm(d)->self;
}

static const char *op_host(const struct tg_dist *d, unsigned r)
{
	return r < cdm(d)->ranks ? cdm(d)->host[r] : "";
}

static int op_local(const struct tg_dist *d, unsigned r)
{
	return r < cdm(d)->ranks ? cdm(d)->local[r] : 0;
}

static int op_start(struct tg_dist *dd, unsigned nodes, const uint8_t *owner, uint64_t digest,
		    tg_dist_deliver_fn fn, void *arg)
{
	struct dist_mpi *d = dm(dd);
	uint64_t mine[3], *all;
	MPI_Request req;
	double t0 = mono_s();
	unsigned polls = 0;
	int mrc, rc = 0;

	if (d->running || nodes > TG_SIM_MAX_NODES || !fn)
		return fail(d, -EINVAL, "a run is going on, or bad arguments");
	all = calloc(d->ranks, sizeof(mine));
	if (!all)
		return fail(d, -ENOMEM, "out of memory");
	d->run++;
	d->nodes = nodes;
	memcpy(d->owner, owner, nodes);
	d->deliver = fn;
	d->arg = arg;
	d->sent_time = 0;
	d->sent_up = 0;
	d->now = 0;
	d->err[0] = 0;
	d->broken = 0;
	d->waiting = -1;
	for (unsigned r = 0; r < d->ranks; r++) {
		struct peer *pr = &d->peer[r];

		pr->time = 0;
		pr->up = pr->up_prev = 0;
		pr->up_since = 0;
		pr->gone = 0;
		if (r != d->self && (rc = batch_reset(d, &pr->out[pr->cur])))
			goto out;
	}
	/* every rank runs the same configuration */
	mine[0] = digest;
	mine[1] = nodes;
	mine[2] = d->run;
	mrc = MPI_Iallgather(mine, 3, MPI_UINT64_T, all, 3, MPI_UINT64_T, d->comm, &req);
	if (mrc != MPI_SUCCESS) {
		rc = mpi_fail(d, mrc, "MPI_Iallgather", -1);
		goto out;
	}
	for (;;) {
		int flag = 0;

		mrc = MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
		if (mrc != MPI_SUCCESS) {
			rc = mpi_fail(d, mrc, "MPI_Test", -1);
			goto out;
		}
		if (flag)
			break;
		if (polls++ >= SPIN_POLLS) {
			double now = mono_s();

			if (d->stop && *d->stop) {
				rc = fail(d, -EINTR, "interrupted while starting");
				goto out;
			}
			if (now - t0 > d->timeout_ms * 1e-3 * STARTUP_FACTOR) {
				rc = fail(d, -ETIMEDOUT, "a rank did not start the run within %.1f s",
					  now - t0);
				goto out;
			}
		}
		pause_poll(polls);
	}
	for (unsigned r = 0; r < d->ranks; r++)
		if (all[3 * r] != digest || all[3 * r + 1] != nodes || all[3 * r + 2] != d->run) {
			rc = fail(d, -EPROTO, "rank %u (%s) runs another configuration (%llu nodes, "
				  "digest %016llx; here %u nodes, digest %016llx)", r, d->host[r],
				  (unsigned long long)all[3 * r + 1],
				  (unsigned long long)all[3 * r], nodes, (unsigned long long)digest);
			goto out;
		}
	for (unsigned r = 0; r < d->ranks; r++)
		d->peer[r].heard = mono_s();
	d->running = 1;
out:
	free(all);
	return rc;
}

static int op_send(struct tg_dist *dd, const struct tg_dist_frame *f)
{
	struct dist_mpi *d = dm(dd);
	struct outbuf *o;
	struct msg_frame m;
	unsigned r;

	if (f->dst >= d->nodes || f->len < MIN_FRAME || f->len > MAX_FRAME)
		return -EINVAL;
	r = d->owner[f->dst];
	o = &d->peer[r].out[d->peer[r].cur];
	if (reserve(d, o, sizeof(m) + ((f->len + 7u) & ~7u)))
		return -ENOMEM;
	m = (struct msg_frame){ .src = (uint16_t)f->src, .dst = (uint16_t)f->dst,
				.len = (uint16_t)f->len, .flags = f->reorder ? 1u : 0u,
				.due = f->due, .seq = f->seq };
	memcpy(o->buf + o->len, &m, sizeof(m));
	memcpy(o->buf + o->len + sizeof(m), f->data, f->len);
	memset(o->buf + o->len + sizeof(m) + f->len, 0, ((f->len + 7u) & ~7u) - f->len);
	o->len += sizeof(m) + ((f->len + 7u) & ~7u);
	o->nframes++;
	return 0;
}

static int op_sync(struct tg_dist *dd, uint64_t t, unsigned up, unsigned lookahead)
{
	struct dist_mpi *d = dm(dd);
	uint64_t need = t + 1 > lookahead ? t + 1 - lookahead : 0;
	unsigned every = lookahead / 2 ? lookahead / 2 : 1, polls = 0;
	double t_wait = 0, last_beat = 0;
	char what[48];
	int rc;

	if (d->err[0])
		return d->broken ? -EIO : -EPIPE;
	d->now = t;
	d->lookahead = lookahead;
	/* announce our time every half lookahead (peers rarely wait for
	 * it), and at once a bring-up count they may be waiting for */
	if (d->sent_time == 0 || t + 1 >= d->sent_time + every ||
	    (up != d->sent_up && d->sent_time != t + 1))
		if ((rc = announce(d, t, up)))
			return rc;
	for (;;) {
		unsigned behind = d->ranks;
		double now;

		for (unsigned r = 0; r < d->ranks; r++)
			if (r != d->self && d->peer[r].time < need) {
				behind = r;
				break;
			}
		if (behind == d->ranks)
			break;
		if (d->peer[behind].gone) {
			rc = fail(d, -EPIPE, "rank %u (%s) stopped at cycle %llu; cycle %llu needs it",
				  behind, d->host[behind], (unsigned long long)d->peer[behind].time,
				  (unsigned long long)t);
			break;
		}
		if ((rc = poll_in(d)))
			break;
		if (d->peer[behind].time >= need)
			continue;
		/* about to wait: the peers must know where we are */
		if (d->sent_time != t + 1 && (rc = announce(d, t, up)))
			break;
		d->waiting = (int)behind;
		if (!polls++)
			t_wait = last_beat = mono_s();
		if (polls < SPIN_POLLS)
			continue;
		now = mono_s();
		snprintf(what, sizeof(what), "cycle %llu", (unsigned long long)t);
		if ((rc = wait_check(d, behind, now, what)))
			break;
		/* heartbeat: we are alive, only waiting */
		if (now - last_beat >= HEARTBEAT_S) {
			if ((rc = announce(d, t, up)))
				break;
			last_beat = now;
		}
		pause_poll(polls);
	}
	if (polls)
		d->wait_s += mono_s() - t_wait;
	if (!rc)
		d->waiting = -1;
	return rc;
}

static uint64_t op_horizon(const struct tg_dist *dd)
{
	const struct dist_mpi *d = cdm(dd);
	uint64_t h = UINT64_MAX;

	for (unsigned r = 0; r < d->ranks; r++)
		if (r != d->self && d->peer[r].time + d->lookahead < h)
			h = d->peer[r].time + d->lookahead;
	return h;
}

static unsigned op_peer_up(const struct tg_dist *dd, uint64_t t)
{
	const struct dist_mpi *d = cdm(dd);
	unsigned up = 0;

	for (unsigned r = 0; r < d->ranks; r++) {
		const struct peer *pr = &d->peer[r];
		/* a peer may already be one cycle ahead: its count as of t */
		unsigned v = pr->up_since <= t ? pr->up : pr->up_prev;

		if (r != d->self && v > up)
			up = v;
	}
	return up;
}

static int op_stop(struct tg_dist *dd, uint64_t cycle)
{
	struct dist_mpi *d = dm(dd);
	unsigned polls = 0;
	int rc = 0;

	if (!d->running)
		return 0;
	d->running = 0;
	for (unsigned r = 0; r < d->ranks && !d->broken; r++)
		if (r != d->self && (rc = send_batch(d, r, MSG_BYE, cycle, 0)))
			break;
	/* a broken connection does not wait: the program ends the job */
	if (d->broken)
		return rc ? rc : -EIO;
	for (;;) {
		unsigned left = d->ranks;

		for (unsigned r = 0; r < d->ranks; r++)
			if (r != d->self && !d->peer[r].gone) {
				left = r;
				break;
			}
		if (left == d->ranks)
			break;
		if ((rc = poll_in(d)))
			return rc;
		if (d->peer[left].gone)
			continue;
		d->waiting = (int)left;
		if (polls++ >= SPIN_POLLS && (rc = wait_check(d, left, mono_s(), "the end")))
			return rc;
		pause_poll(polls);
	}
	for (unsigned r = 0; r < d->ranks; r++)
		for (unsigned i = 0; r != d->self && i < NSEND; i++)
			if ((rc = send_done(d, r, &d->peer[r].out[i])))
				return rc;
	d->waiting = -1;
	return 0;
}

/* Wait for one request of a gather with rank r; silent: whether r's
 * silence ends the wait.  0 or -errno. */
static int wait_req(struct dist_mpi *d, MPI_Request *req, unsigned r, int silent)
{
	unsigned polls = 0;

	d->peer[r].heard = mono_s();
	for (;;) {
		int flag = 0, mrc = MPI_Test(req, &flag, MPI_STATUS_IGNORE), rc;

		if (mrc != MPI_SUCCESS)
			return mpi_fail(d, mrc, "MPI_Test", (int)r);
		if (flag)
			return 0;
		if (silent && polls >= SPIN_POLLS &&
		    (rc = wait_check(d, r, mono_s(), "the capture")))
			return rc;
		polls++;
		pause_poll(polls);
	}
}

/* Post a receive (send) of n bytes from (to) rank r of a gather and wait
 * for it.  0 or -errno. */
static int xfer(struct dist_mpi *d, int send, void *buf, int n, MPI_Datatype type, unsigned r,
		int silent)
{
	MPI_Request req;
	int mrc = send ? MPI_Isend(buf, n, type, (int)r, TAG_FILE, d->comm, &req) :
			 MPI_Irecv(buf, n, type, (int)r, TAG_FILE, d->comm, &req);

	if (mrc != MPI_SUCCESS)
		return mpi_fail(d, mrc, send ? "MPI_Isend" : "MPI_Irecv", (int)r);
	return wait_req(d, &req, r, silent);
}

/*
 * Rank 0 takes the captures one rank after the other: it tells rank r
 * its turn, then takes its size and its chunks.  A rank waiting for its
 * turn does not time rank 0 out (rank 0 is busy with the ranks before
 * it, however large their captures); once its turn came, a silence of
 * the peer ends the gather.
 */
static int op_gather(struct tg_dist *dd, FILE *mine, FILE **all)
{
	struct dist_mpi *d = dm(dd);
	char *buf = malloc(FILE_CHUNK);
	uint64_t turn = 0;
	int rc = 0;

	if (!buf)
		return fail(d, -ENOMEM, "out of memory");
	rewind(mine);
	if (d->self == 0) {
		all[0] = mine;
		for (unsigned r = 1; r < d->ranks && !rc; r++) {
			uint64_t size = 0;

			all[r] = tmpfile();
			if (!all[r]) {
				int e = errno ? errno : EIO;

				rc = fail(d, -e, "tmpfile: %s", strerror(e));
				break;
			}
			if ((rc = xfer(d, 1, &turn, 1, MPI_UINT64_T, r, 1)) ||
			    (rc = xfer(d, 0, &size, 1, MPI_UINT64_T, r, 1)))
				break;
			while (size && !rc) {
				int n = size < FILE_CHUNK ? (int)size : FILE_CHUNK;

				if (!(rc = xfer(d, 0, buf, n, MPI_BYTE, r, 1)) &&
				    fwrite(buf, 1, (size_t)n, all[r]) != (size_t)n)
					rc = fail(d, -EIO, "writing a capture: %s", strerror(errno));
				size -= (uint64_t)n;
			}
			rewind(all[r]);
		}
	} else {
		uint64_t size;
		long end;

		if (fseek(mine, 0, SEEK_END) || (end = ftell(mine)) < 0) {
			int e = errno ? errno : EIO;

			free(buf);
			return fail(d, -e, "sizing a capture: %s", strerror(e));
		}
		size = (uint64_t)end;
		rewind(mine);
		rc = xfer(d, 0, &turn, 1, MPI_UINT64_T, 0, 0);
		if (!rc)
			rc = xfer(d, 1, &size, 1, MPI_UINT64_T, 0, 1);
		while (size && !rc) {
			int n = size < FILE_CHUNK ? (int)size : FILE_CHUNK;

			if (fread(buf, 1, (size_t)n, mine) != (size_t)n) {
				rc = fail(d, -EIO, "reading a capture");
				break;
			}
			rc = xfer(d, 1, buf, n, MPI_BYTE, 0, 1);
			size -= (uint64_t)n;
		}
	}
	free(buf);
	return rc;
}

static const char *op_error(const struct tg_dist *d)
{
	return cdm(d)->err;
}

static const struct tg_dist_ops mpi_ops = {
	.ranks = op_ranks,
	.self = op_self,
	.host = op_host,
	.local = op_local,
	.start = op_start,
	.send = op_send,
	.sync = op_sync,
	.horizon = op_horizon,
	.peer_up = op_peer_up,
	.stop = op_stop,
	.gather = op_gather,
	.error = op_error,
};

/* ---- connection --------------------------------------------------------- */

struct tg_dist *tg_dist_mpi_open(MPI_Comm comm, unsigned timeout_ms,
				 volatile const sig_atomic_t *stop, char *err, size_t errn)
{
	char name[MPI_MAX_PROCESSOR_NAME], mine[TG_DIST_HOST_MAX];
	struct dist_mpi *d;
	MPI_Comm shm = MPI_COMM_NULL;
	int size = 0, rank = 0, len = 0, inited = 0, nshm = 0, *shm_ranks = NULL, mrc, e;
	const char *call = "";

	MPI_Initialized(&inited);
	if (!inited) {
		snprintf(err, errn, "MPI is not initialized");
		errno = EINVAL;
		return NULL;
	}
	if ((mrc = MPI_Comm_size(comm, &size)) != MPI_SUCCESS ||
	    (mrc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS) {
		snprintf(err, errn, "MPI_Comm_size or MPI_Comm_rank failed: MPI error %d", mrc);
		errno = EINVAL;
		return NULL;
	}
	if (size < 2 || size > (int)TG_DIST_MAX_RANKS) {
		snprintf(err, errn, "a split cluster needs 2 to %u ranks, not %d", TG_DIST_MAX_RANKS,
			 size);
		errno = EINVAL;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		goto oom;
	d->base.ops = &mpi_ops;
	d->comm = MPI_COMM_NULL;
	/* a waiting rank naps NAP_NS between polls: not the default 50 us more */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	d->ranks = (unsigned)size;
	d->self = (unsigned)rank;
	d->timeout_ms = timeout_ms ? timeout_ms : DEFAULT_TIMEOUT_MS;
	d->stop = stop;
	d->waiting = -1;
	d->host = calloc((size_t)size, sizeof(*d->host));
	d->local = calloc((size_t)size, 1);
	d->peer = calloc((size_t)size, sizeof(*d->peer));
	shm_ranks = calloc((size_t)size, sizeof(int));
	if (!d->host || !d->local || !d->peer || !shm_ranks)
		goto oom;
	for (int r = 0; r < size; r++)
		for (unsigned i = 0; i < NSEND; i++)
			d->peer[r].out[i].req = MPI_REQUEST_NULL;
	if ((mrc = MPI_Comm_dup(comm, &d->comm)) != MPI_SUCCESS) {
		call = "MPI_Comm_dup";
		goto mpi_err;
	}
	/* errors come back as return codes, reported with the rank */
	if ((mrc = MPI_Comm_set_errhandler(d->comm, MPI_ERRORS_RETURN)) != MPI_SUCCESS) {
		call = "MPI_Comm_set_errhandler";
		goto mpi_err;
	}
	if (MPI_Get_processor_name(name, &len) != MPI_SUCCESS)
		snprintf(name, sizeof(name), "rank %d", rank);
	snprintf(mine, sizeof(mine), "%.*s", (int)sizeof(mine) - 1, name);
	mrc = MPI_Allgather(mine, TG_DIST_HOST_MAX, MPI_CHAR, d->host, TG_DIST_HOST_MAX, MPI_CHAR,
			    d->comm);
	if (mrc != MPI_SUCCESS) {
		call = "MPI_Allgather of the hosts";
		goto mpi_err;
	}
	/* the ranks that share this machine's memory */
	mrc = MPI_Comm_split_type(d->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
	if (mrc != MPI_SUCCESS) {
		call = "MPI_Comm_split_type";
		goto mpi_err;
	}
	if ((mrc = MPI_Comm_set_errhandler(shm, MPI_ERRORS_RETURN)) != MPI_SUCCESS ||
	    (mrc = MPI_Comm_size(shm, &nshm)) != MPI_SUCCESS ||
	    (mrc = MPI_Allgather(&rank, 1, MPI_INT, shm_ranks, 1, MPI_INT, shm)) != MPI_SUCCESS) {
		call = "MPI_Allgather of the ranks sharing memory";
		goto mpi_err;
	}
	for (int i = 0; i < nshm; i++)
		if (shm_ranks[i] >= 0 && shm_ranks[i] < size)
			d->local[shm_ranks[i]] = 1;
	for (int r = 0; r < size; r++)
		if (d->local[r]) {
			d->local[r] = 2;   /* the lowest rank of the machine */
			break;
		}
	MPI_Comm_free(&shm);
	free(shm_ranks);
	return &d->base;

mpi_err:
	{
		char s[MPI_MAX_ERROR_STRING];
		int n = 0;

		if (MPI_Error_string(mrc, s, &n) != MPI_SUCCESS)
			snprintf(s, sizeof(s), "MPI error %d", mrc);
		snprintf(err, errn, "%s: %s", call, s);
	}
	e = EIO;
	goto out;
oom:
	snprintf(err, errn, "out of memory");
	e = ENOMEM;
out:
	if (shm != MPI_COMM_NULL)
		MPI_Comm_free(&shm);
	if (d && d->comm != MPI_COMM_NULL)
		MPI_Comm_free(&d->comm);
	free(shm_ranks);
	if (d) {
		free(d->host);
		free(d->local);
		free(d->peer);
		free(d);
	}
	errno = e;
	return NULL;
}

void tg_dist_close(struct tg_dist *dd)
{
	struct dist_mpi *d = dm(dd);

	if (!d)
		return;
	for (unsigned r = 0; r < d->ranks; r++)
		for (unsigned i = 0; i < NSEND; i++) {
			struct outbuf *o = &d->peer[r].out[i];
			int flag = 1;

			if (o->req != MPI_REQUEST_NULL &&
			    MPI_Test(&o->req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
				flag = 0;
			if (flag) {
				free(o->buf);
				continue;
			}
			/* still being sent (after a failure, the peer gone): MPI
			 * may read the buffer until MPI_Finalize, so it is kept */
			MPI_Request_free(&o->req);
		}
	if (!d->broken)
		MPI_Comm_free(&d->comm);
	free(d->rbuf);
	free(d->host);
	free(d->local);
	free(d->peer);
	free(d);
}

int tg_dist_waiting_for(const struct tg_dist *d)
{
	return d ? cdm(d)->waiting : -1;
}

void tg_dist_counts(const struct tg_dist *d, uint64_t *msgs, double *wait_s)
{
	*msgs = d ? cdm(d)->nmsgs : 0;
	*wait_s = d ? cdm(d)->wait_s : 0;
}

/* ---- placement ---------------------------------------------------------- */

/* Parse a node list "0-3,8" into owner[] for rank r.  0 or -1. */
static int place_list(const char *s, size_t n, unsigned nodes, unsigned r, uint8_t *owner,
		      uint8_t *seen)
{
	char buf[1024], *tok, *save = NULL;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-'), *end;
		unsigned long lo, hi;

		if (dash)
			*dash = 0;
		lo = strtoul(tok, &end, 10);
		if (!*tok || *end || lo >= nodes)
			return -1;
		hi = lo;
		if (dash) {
			hi = strtoul(dash + 1, &end, 10);
			if (!dash[1] || *end || hi >= nodes || hi < lo)
				return -1;
		}
		for (unsigned long k = lo; k <= hi; k++) {
			if (seen[k])
				return -1;
			seen[k] = 1;
			owner[k] = (uint8_t)r;
		}
	}
	return 0;
}

int tg_dist_place(const char *rule, unsigned nodes, unsigned ranks, uint8_t *owner, char *err,
		  size_t errn)
{
	uint8_t seen[TG_SIM_MAX_NODES] = { 0 };
	const char *p;
	unsigned r = 0;

	if (!nodes || nodes > TG_SIM_MAX_NODES || !ranks || ranks > nodes) {
		snprintf(err, errn, "%u ranks cannot share %u nodes (each rank hosts one or more)",
			 ranks, nodes);
		return -EINVAL;
	}
	if (!rule || !strcmp(rule, "block")) {
		for (unsigned n = 0; n < nodes; n++)
			owner[n] = (uint8_t)(n * ranks / nodes);
		return 0;
	}
	if (!strcmp(rule, "cyclic")) {
		for (unsigned n = 0; n < nodes; n++)
			owner[n] = (uint8_t)(n % ranks);
		return 0;
	}
	for (p = rule; r < ranks; r++) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);

		if (place_list(p, n, nodes, r, owner, seen)) {
			snprintf(err, errn, "placement '%s': list %u ('%.*s') is not nodes 0..%u "
				 "unused by the lists before it", rule, r, (int)n, p, nodes - 1);
			return -EINVAL;
		}
		if (!slash)
			break;
		p = slash + 1;
	}
	if (r + 1 != ranks) {
		snprintf(err, errn, "placement '%s': %u lists separated by '/', one per rank of %u",
			 rule, r + 1, ranks);
		return -EINVAL;
	}
	for (unsigned n = 0; n < nodes; n++)
		if (!seen[n]) {
			snprintf(err, errn, "placement '%s': no rank hosts node %u", rule, n);
			return -EINVAL;
		}
	return 0;
}
