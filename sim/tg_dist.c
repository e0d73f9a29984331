/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Distributed simulation: message codec, UDP endpoint, start-up handshake and conservative time synchronization. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tg_dist.h"

#define DEFAULT_TIMEOUT_MS  5000u
#define HELLO_RESEND_MS     100
#define HEARTBEAT_MS        200
#define STARTUP_FACTOR      6u       /* start-up may take this many timeouts */
#define SOCK_BUF_BYTES      (4 << 20)
#define HELLO_ACK           1u

struct peer {
	struct sockaddr_in sa;
	uint32_t tx_seq, rx_seq;        /* last sent / last received stream message */
	uint64_t time;                  /* it has executed every cycle before this */
	unsigned up, up_prev;           /* its bring-up count, and the one before */
	uint64_t up_since;              /* cycle it announced `up` first */
	int hello, acked, gone;
	double heard;                   /* monotonic seconds of its last message */
};

struct tg_dist {
	int fd;
	unsigned procs, self, nodes;
	uint8_t owner[TG_SIM_MAX_NODES];
	uint64_t digest;
	unsigned timeout_ms;
	struct peer peer[TG_DIST_MAX_PROCS];
	uint64_t sent_time;             /* last cycle announced (+1; 0: none) */
	unsigned sent_up;               /* bring-up count announced with it */
	uint64_t now;                   /* cycle being synchronized */
	uint64_t nsent;
	tg_dist_deliver_fn deliver;
	void *arg;
	char err[256];
	uint8_t buf[TG_DIST_HDR_BYTES + TG_DIST_MAX_FRAME];
};

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int fail(struct tg_dist *d, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->err, sizeof(d->err), fmt, ap);
	va_end(ap);
	return rc;
}

/* ---- codec -------------------------------------------------------------- */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

int tg_dist_encode(const struct tg_dist_msg *m, uint8_t *buf, size_t n)
{
	if (m->len > TG_DIST_MAX_FRAME || n < TG_DIST_HDR_BYTES + (size_t)m->len)
		return -EMSGSIZE;
	put32(buf, TG_DIST_MAGIC);
	buf[4] = TG_DIST_VERSION;
	buf[5] = m->type;
	put16(buf + 6, m->from);
	put32(buf + 8, m->seq);
	put32(buf + 12, m->aux);
	put64(buf + 16, m->cycle);
	put16(buf + 24, m->len);
	put16(buf + 26, 0);
	put32(buf + 28, m->nodes);
	if (m->len)
		memcpy(buf + TG_DIST_HDR_BYTES, m->data, m->len);
	return (int)(TG_DIST_HDR_BYTES + m->len);
}

int tg_dist_decode(const uint8_t *buf, size_t n, struct tg_dist_msg *m, char *why, size_t whyn)
{
	if (n < TG_DIST_HDR_BYTES) {
		snprintf(why, whyn, "%zu bytes, shorter than a header", n);
		return -EBADMSG;
	}
	if (get32(buf) != TG_DIST_MAGIC) {
		snprintf(why, whyn, "bad magic 0x%08x", get32(buf));
		return -EBADMSG;
	}
	if (buf[4] != TG_DIST_VERSION) {
		snprintf(why, whyn, "version %u, not %u", buf[4], TG_DIST_VERSION);
		return -EBADMSG;
	}
	m->type = buf[5];
	m->from = get16(buf + 6);
	m->seq = get32(buf + 8);
	m->aux = get32(buf + 12);
	m->cycle = get64(buf + 16);
	m->len = get16(buf + 24);
	m->nodes = get32(buf + 28);
	m->data = buf + TG_DIST_HDR_BYTES;
	if (m->type < TG_DIST_HELLO || m->type > TG_DIST_BYE) {
		snprintf(why, whyn, "unknown type %u", m->type);
		return -EBADMSG;
	}
	if (get16(buf + 26)) {
		snprintf(why, whyn, "reserved field not zero");
		return -EBADMSG;
	}
	if ((size_t)m->len != n - TG_DIST_HDR_BYTES || (m->type != TG_DIST_FRAME && m->len)) {
		snprintf(why, whyn, "length %u does not match the %zu-byte datagram", m->len, n);
		return -EBADMSG;
	}
	return 0;
}

/* ---- endpoint ----------------------------------------------------------- */

static int parse_addr(const char *s, struct sockaddr_in *sa)
{
	char host[64];
	const char *colon = s ? strrchr(s, ':') : NULL;
	char *end;
	unsigned long port;

	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = 0;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (errno || *end || !colon[1] || port > 65535)
		return -EINVAL;
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, host, &sa->sin_addr) != 1)
		return -EINVAL;
	return 0;
}

static const char *addr_str(const struct sockaddr_in *sa, char *buf, size_t n)
{
	char ip[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &sa->sin_addr, ip, sizeof(ip));
	snprintf(buf, n, "%s:%u", ip, ntohs(sa->sin_port));
	return buf;
}

static int send_msg(struct tg_dist *d, unsigned p, struct tg_dist_msg *m)
{
	uint8_t out[TG_DIST_HDR_BYTES + TG_DIST_MAX_FRAME];
	struct peer *pr = &d->peer[p];
	int len;

	m->from = (uint16_t)d->self;
	m->nodes = d->nodes;
	if (m->type != TG_DIST_HELLO)
		m->seq = ++pr->tx_seq;
	len = tg_dist_encode(m, out, sizeof(out));
	if (len < 0)
		return len;
	for (;;) {
		ssize_t n = sendto(d->fd, out, (size_t)len, 0, (const struct sockaddr *)&pr->sa,
				   sizeof(pr->sa));

		if (n == len)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == ECONNREFUSED || errno == EAGAIN || errno == ENOBUFS))
			continue;   /* transient on a local socket: the next try goes out */
		return fail(d, n < 0 ? -errno : -EIO, "sending to process %u: %s", p,
			    strerror(n < 0 ? errno : EIO));
	}
	d->nsent++;
	return 0;
}

static int send_hello(struct tg_dist *d, unsigned p)
{
	struct tg_dist_msg m = { .type = TG_DIST_HELLO, .cycle = d->digest,
				 .aux = d->peer[p].hello ? HELLO_ACK : 0 };

	return send_msg(d, p, &m);
}

/* Which peer sent from sa, or -1. */
static int peer_of(const struct tg_dist *d, const struct sockaddr_in *sa)
{
	for (unsigned p = 0; p < d->procs; p++)
		if (p != d->self && d->peer[p].sa.sin_port == sa->sin_port &&
		    d->peer[p].sa.sin_addr.s_addr == sa->sin_addr.s_addr)
			return (int)p;
	return -1;
}

/* Handle one datagram.  0 or -errno. */
static int handle(struct tg_dist *d, const uint8_t *buf, size_t n, const struct sockaddr_in *sa)
{
	struct tg_dist_msg m;
	char why[128], from[64];
	struct peer *pr;
	int p = peer_of(d, sa), rc;

	addr_str(sa, from, sizeof(from));
	if (p < 0)
		return fail(d, -EPROTO, "message from %s, which is no process of this cluster",
			    from);
	rc = tg_dist_decode(buf, n, &m, why, sizeof(why));
	if (rc)
		return fail(d, rc, "malformed message from process %d (%s): %s", p, from, why);
	if (m.from != (unsigned)p)
		return fail(d, -EPROTO, "process %d (%s) claims to be process %u", p, from,
			    m.from);
	if (m.nodes != d->nodes)
		return fail(d, -EPROTO, "process %d (%s) runs %u nodes, this one %u", p, from,
			    m.nodes, d->nodes);
	pr = &d->peer[p];
	pr->heard = mono_s();
	if (m.type == TG_DIST_HELLO) {
		if (m.cycle != d->digest)
			return fail(d, -EPROTO, "process %d (%s) runs another configuration "
				    "(digest %016llx, here %016llx)", p, from,
				    (unsigned long long)m.cycle, (unsigned long long)d->digest);
		if (m.aux & HELLO_ACK)
			pr->acked = 1;
		if (!pr->hello || !(m.aux & HELLO_ACK)) {
			pr->hello = 1;
			return send_hello(d, (unsigned)p);   /* it has not seen ours yet */
		}
		return 0;
	}
	if (m.seq != pr->rx_seq + 1)
		return fail(d, -EPROTO, "message %u from process %d (%s) where %u was due: the "
			    "network lost or reordered messages", m.seq, p, from, pr->rx_seq + 1);
	pr->rx_seq = m.seq;
	pr->hello = pr->acked = 1;       /* it is past the handshake */
	if (pr->gone)
		return fail(d, -EPROTO, "process %d (%s) sent a message after leaving", p, from);
	switch (m.type) {
	case TG_DIST_TIME:
	case TG_DIST_BYE:
		if (m.cycle < pr->time)
			return fail(d, -EPROTO, "process %d (%s) went back in time, from cycle %llu "
				    "to %llu", p, from, (unsigned long long)pr->time,
				    (unsigned long long)m.cycle);
		pr->time = m.cycle;
		if (m.type == TG_DIST_BYE) {
			pr->gone = 1;
		} else if (m.aux != pr->up) {
			pr->up_prev = pr->up;
			pr->up = m.aux;
			pr->up_since = m.cycle;
		}
		return 0;
	default: {   /* TG_DIST_FRAME */
		unsigned src = m.aux & 0xffffu, dst = m.aux >> 16;

		if (src >= d->nodes || d->owner[src] != (unsigned)p || dst >= d->nodes ||
		    d->owner[dst] != d->self)
			return fail(d, -EPROTO, "process %d (%s) sent a frame from node %u to node "
				    "%u: not its node, or not one of ours", p, from, src, dst);
		if (m.len < 14)
			return fail(d, -EBADMSG, "process %d (%s) sent a %u-byte frame", p, from,
				    m.len);
		if (m.cycle < d->now)
			return fail(d, -EPROTO, "process %d (%s) sent a frame due in cycle %llu, "
				    "already past (cycle %llu): it broke the lookahead", p, from,
				    (unsigned long long)m.cycle, (unsigned long long)d->now);
		rc = d->deliver(d->arg, src, dst, m.cycle, m.data, m.len);
		return rc ? fail(d, rc, "taking a frame from process %d: %s", p, strerror(-rc)) :
			    0;
	}
	}
}

/* Read what has arrived; with wait_ms > 0 wait that long for the first
 * datagram.  0 or -errno. */
static int drain(struct tg_dist *d, int wait_ms)
{
	for (;;) {
		struct sockaddr_in sa;
		socklen_t sl = sizeof(sa);
		ssize_t n = recvfrom(d->fd, d->buf, sizeof(d->buf), MSG_DONTWAIT | MSG_TRUNC,
				     (struct sockaddr *)&sa, &sl);
		int rc;

		if (n < 0) {
			struct pollfd pfd = { .fd = d->fd, .events = POLLIN };

			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ECONNREFUSED)
				return fail(d, -errno, "receiving: %s", strerror(errno));
			if (wait_ms <= 0)
				return 0;
			rc = poll(&pfd, 1, wait_ms);
			if (rc < 0 && errno != EINTR)
				return fail(d, -errno, "poll: %s", strerror(errno));
			wait_ms = 0;
			continue;
		}
		if ((size_t)n > sizeof(d->buf))
			return fail(d, -EBADMSG, "a %zd-byte datagram, longer than any message", n);
		if (sl != sizeof(sa) || sa.sin_family != AF_INET)
			return fail(d, -EPROTO, "a datagram that is not IPv4");
		rc = handle(d, d->buf, (size_t)n, &sa);
		if (rc)
			return rc;
		wait_ms = 0;
	}
}

struct tg_dist *tg_dist_open(const struct tg_sim_dist *cfg, unsigned nodes, uint64_t digest,
			     tg_dist_deliver_fn fn, void *arg, char *err, size_t errn)
{
	struct tg_dist *d;
	int rc = -EINVAL, bufsz = SOCK_BUF_BYTES;
	unsigned mine = 0;
	double t0, last = 0;

	if (!cfg || cfg->procs < 2 || cfg->procs > TG_DIST_MAX_PROCS || cfg->self >= cfg->procs ||
	    !cfg->owner || !cfg->addr || !fn || nodes > TG_SIM_MAX_NODES) {
		if (cfg && cfg->sock >= 0)
			close(cfg->sock);   /* taken over, even when refused */
		snprintf(err, errn, "bad distribution: needs 2..%u processes, an owner map and "
			 "addresses", TG_DIST_MAX_PROCS);
		errno = EINVAL;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		if (cfg->sock >= 0)
			close(cfg->sock);
		snprintf(err, errn, "out of memory");
		return NULL;
	}
	d->fd = cfg->sock;   /* taken over, even if opening fails */
	d->procs = cfg->procs;
	d->self = cfg->self;
	d->nodes = nodes;
	d->digest = digest;
	d->deliver = fn;
	d->arg = arg;
	d->timeout_ms = cfg->timeout_ms ? cfg->timeout_ms : DEFAULT_TIMEOUT_MS;
	for (unsigned n = 0; n < nodes; n++) {
		if (cfg->owner[n] >= cfg->procs) {
			fail(d, -EINVAL, "node %u belongs to process %u of %u", n, cfg->owner[n],
			     cfg->procs);
			goto out;
		}
		d->owner[n] = cfg->owner[n];
		mine += cfg->owner[n] == cfg->self;
	}
	for (unsigned p = 0; p < cfg->procs; p++) {
		if (parse_addr(cfg->addr[p], &d->peer[p].sa)) {
			fail(d, -EINVAL, "process %u: bad address '%s' (want IPV4:PORT)", p,
			     cfg->addr[p] ? cfg->addr[p] : "");
			goto out;
		}
		for (unsigned q = 0; q < p; q++)
			if (!memcmp(&d->peer[q].sa, &d->peer[p].sa, sizeof(d->peer[p].sa))) {
				fail(d, -EINVAL, "processes %u and %u share address %s", q, p,
				     cfg->addr[p]);
				goto out;
			}
	}
	if (!mine) {
		fail(d, -EINVAL, "process %u hosts no node", cfg->self);
		goto out;
	}
	if (d->fd < 0) {
		d->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (d->fd < 0 || bind(d->fd, (const struct sockaddr *)&d->peer[d->self].sa,
				      sizeof(d->peer[d->self].sa)) < 0) {
			rc = -errno;
			fail(d, rc, "binding %s: %s", cfg->addr[d->self], strerror(errno));
			goto out;
		}
	}
	setsockopt(d->fd, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz));
	setsockopt(d->fd, SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof(bufsz));
	/* handshake: every peer has our hello and we have its */
	t0 = mono_s();
	for (;;) {
		double now = mono_s();
		unsigned missing = 0, first = 0;

		for (unsigned p = 0; p < d->procs; p++)
			if (p != d->self && !(d->peer[p].hello && d->peer[p].acked) && !missing++)
				first = p;
		if (!missing)
			break;
		if (now - t0 > d->timeout_ms * 1e-3 * STARTUP_FACTOR) {
			rc = fail(d, -ETIMEDOUT, "process %u (%s) did not answer within %.1f s of "
				  "start-up", first, cfg->addr[first],
				  d->timeout_ms * 1e-3 * STARTUP_FACTOR);
			goto out;
		}
		if (now - last >= HELLO_RESEND_MS * 1e-3) {
			for (unsigned p = 0; p < d->procs; p++)
				if (p != d->self && !(d->peer[p].hello && d->peer[p].acked) &&
				    (rc = send_hello(d, p)))
					goto out;
			last = now;
		}
		rc = drain(d, HELLO_RESEND_MS / 2);
		if (rc)
			goto out;
	}
	for (unsigned p = 0; p < d->procs; p++)
		d->peer[p].heard = mono_s();
	return d;

out:
	snprintf(err, errn, "%s", d->err);
	if (d->fd >= 0)
		close(d->fd);
	free(d);
	errno = rc < 0 ? -rc : EINVAL;
	return NULL;
}

void tg_dist_close(struct tg_dist *d, uint64_t cycle)
{
	if (!d)
		return;
	for (unsigned p = 0; p < d->procs; p++) {
		struct tg_dist_msg m = { .type = TG_DIST_BYE, .cycle = cycle };

		if (p != d->self && !d->peer[p].gone)
			send_msg(d, p, &m);
	}
	close(d->fd);
	free(d);
}

int tg_dist_local(const struct tg_dist *d, unsigned node)
{
	return !d || (node < d->nodes && d->owner[node] == d->self);
}

int tg_dist_send_frame(struct tg_dist *d, unsigned src, unsigned dst, uint64_t due,
		       const uint8_t *data, unsigned len)
{
	struct tg_dist_msg m = { .type = TG_DIST_FRAME, .cycle = due, .aux = src | dst << 16,
				 .len = (uint16_t)len, .data = data };

	if (dst >= d->nodes || len > TG_DIST_MAX_FRAME)
		return -EINVAL;
	return send_msg(d, d->owner[dst], &m);
}

static int announce(struct tg_dist *d, uint64_t t, unsigned up)
{
	for (unsigned p = 0; p < d->procs; p++) {
		struct tg_dist_msg m = { .type = TG_DIST_TIME, .cycle = t, .aux = up };
		int rc;

		if (p != d->self && (rc = send_msg(d, p, &m)))
			return rc;
	}
	d->sent_time = t + 1;
	d->sent_up = up;
	return 0;
}

int tg_dist_sync(struct tg_dist *d, uint64_t t, unsigned up, unsigned lookahead)
{
	uint64_t need = t + 1 > lookahead ? t + 1 - lookahead : 0;
	unsigned every = lookahead / 2 ? lookahead / 2 : 1;
	double t_wait = 0;
	int rc;

	if (d->err[0])
		return -EPIPE;
	d->now = t;
	/* announce our time every half lookahead (peers rarely wait for
	 * it), and at once a bring-up count they may be waiting for */
	if (d->sent_time == 0 || t + 1 >= d->sent_time + every ||
	    (up != d->sent_up && d->sent_time != t + 1))
		if ((rc = announce(d, t, up)))
			return rc;
	for (;;) {
		unsigned behind = d->procs, p;

		for (p = 0; p < d->procs; p++)
			if (p != d->self && d->peer[p].time < need) {
				behind = p;
				break;
			}
		if (behind == d->procs)
			return 0;
		if (d->peer[behind].gone)
			return fail(d, -EPIPE, "process %u stopped at cycle %llu; cycle %llu needs it",
				    behind, (unsigned long long)d->peer[behind].time,
				    (unsigned long long)t);
		rc = drain(d, 0);
		if (rc)
			return rc;
		if (d->peer[behind].time >= need)
			continue;
		/* about to wait: the peers must know where we are */
		if (d->sent_time != t + 1 && (rc = announce(d, t, up)))
			return rc;
		if (!t_wait)
			t_wait = mono_s();
		rc = drain(d, HEARTBEAT_MS);
		if (rc)
			return rc;
		if (d->peer[behind].time < need) {
			double now = mono_s();

			if (now - d->peer[behind].heard > d->timeout_ms * 1e-3) {
				char a[64];

				return fail(d, -ETIMEDOUT, "process %u (%s) silent for %.1f s while "
					    "cycle %llu waits for it: it died or its network is down",
					    behind, addr_str(&d->peer[behind].sa, a, sizeof(a)),
					    now - d->peer[behind].heard, (unsigned long long)t);
			}
			/* heartbeat: we are alive, only waiting */
			if (now - t_wait >= HEARTBEAT_MS * 1e-3) {
				if ((rc = announce(d, t, up)))
					return rc;
				t_wait = now;
			}
		}
	}
}

unsigned tg_dist_peer_up(const struct tg_dist *d, uint64_t t)
{
	unsigned up = 0;

	for (unsigned p = 0; p < d->procs; p++) {
		const struct peer *pr = &d->peer[p];
		/* a peer may already be one cycle ahead: its count as of t */
		unsigned v = pr->up_since <= t ? pr->up : pr->up_prev;

		if (p != d->self && v > up)
			up = v;
	}
	return up;
}

const char *tg_dist_error(const struct tg_dist *d)
{
	return d ? d->err : "";
}

uint64_t tg_dist_sent(const struct tg_dist *d)
{
	return d ? d->nsent : 0;
}
