/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* The Ethernet provider: the NIC of an FPGA board reached through its memory-bus bridge frames. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "tg/tg_frame.h"
#include "tg_internal.h"

#define FRAME     ((unsigned)TG_BRIDGE_FRAME_BYTES)
#define MAX_FRAME 1518u
#define BURST_FRAME ((unsigned)(TG_BRIDGE_OFF_WORDS + 8u * TG_BRIDGE_BURST_WORDS))
#define TRIES     3u              /* sends of a request: the first and two resends */
#define RAW_TIMEOUT_MS  100u      /* a board answers in microseconds */
#define SIM_TIMEOUT_MS  10000u    /* a simulated board, some thousand cycles a request */
#define POLL_US         1000u     /* the driver looks at IRQ_STATUS this often */

struct tg_ethdev {
	pthread_mutex_t mu;          /* one request on the wire at a time */
	int fd;                      /* raw packet or Unix datagram socket */
	int sim;                     /* fd talks to tg-board-sim at peer */
	struct sockaddr_un peer;
	uint8_t src[6], dst[6];      /* our MAC, the bridge's (broadcast until known) */
	uint16_t seq;
	unsigned timeout_ms;
	int lock_fd;                 /* flock: one process drives a board */
	struct tg_ldrv *drv;
	struct tg_drv_mmio io;       /* CSR access for the driver */
	uint64_t requests, resends;
	/* the bridge carries no interrupt: a thread polls IRQ_STATUS, so
	 * full queues grow while no consumer calls in */
	pthread_t poller;
	int polling;
	unsigned poll_us;
	pthread_mutex_t stop_mu;
	pthread_cond_t stop_cv;
	int stop;
};

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void put_le64(uint8_t *p, uint64_t v)
{
	for (unsigned i = 0; i < 8u; i++)
		p[i] = (uint8_t)(v >> (8u * i));
}

static uint64_t get_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (unsigned i = 8; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static int send_frame(struct tg_ethdev *e, const uint8_t *f, size_t n)
{
	ssize_t r = e->sim ? sendto(e->fd, f, n, 0, (const struct sockaddr *)&e->peer,
				    sizeof(e->peer)) :
			     send(e->fd, f, n, 0);

	if (r < 0)
		return -errno;
	return (size_t)r == n ? 0 : -EIO;
}

/* The response to (op, seq) from our bridge, or -EAGAIN for any other frame.
 * A resend's answer echoes the resend bit; an answer to an earlier send
 * of the same request may still come, without it. */
static int match(const struct tg_ethdev *e, const uint8_t *f, ssize_t n, unsigned op,
		 uint16_t seq, unsigned *status, uint64_t *data)
{
	static const uint8_t bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	if (n < (ssize_t)FRAME || __tg_get_be(f + 12, 2) != TG_BRIDGE_ETHERTYPE ||
	    f[TG_BRIDGE_OFF_VER] != TG_BRIDGE_VERSION ||
	    (f[TG_BRIDGE_OFF_OP] & ~TG_BRIDGE_OP_RESEND) != (op | TG_BRIDGE_OP_RESP) ||
	    __tg_get_be(f + TG_BRIDGE_OFF_SEQ, 2) != seq || memcmp(f, e->src, 6))
		return -EAGAIN;
	/* from the bridge we address (any bridge while that is broadcast) */
	if (memcmp(e->dst, bc, 6) && memcmp(f + 6, e->dst, 6))
		return -EAGAIN;
	if (__tg_get_be(f + 6, 3) != TG_BRIDGE_MAC_OUI || f[9] != 0x01)
		return -EAGAIN;
	*status = f[TG_BRIDGE_OFF_STRB];
	*data = get_le64(f + TG_BRIDGE_OFF_DATA);
	return 0;
}

/* The fields every request starts with, the rest of f[len] zero. */
static void head(struct tg_ethdev *e, uint8_t *f, size_t len, unsigned op, uint64_t addr,
		 uint8_t strb, uint64_t data)
{
	memset(f, 0, len);
	memcpy(f, e->dst, 6);
	memcpy(f + 6, e->src, 6);
	__tg_put_be(f + 12, TG_BRIDGE_ETHERTYPE, 2);
	f[TG_BRIDGE_OFF_VER] = TG_BRIDGE_VERSION;
	f[TG_BRIDGE_OFF_OP] = (uint8_t)op;
	__tg_put_be(f + TG_BRIDGE_OFF_SEQ, ++e->seq, 2);
	__tg_put_be(f + TG_BRIDGE_OFF_ADDR, addr, 8);
	f[TG_BRIDGE_OFF_STRB] = strb;
	put_le64(f + TG_BRIDGE_OFF_DATA, data);
}

/* One bridge request f[len] and its response (e->mu held).  A request
 * whose answer does not come is sent again, up to TRIES sends in all,
 * marked as a resend: the bridge keeps the answer to the last request it
 * executed and sends that again rather than executing the request twice,
 * so a write to the REQ window, a doorbell or an atomic runs once however
 * many answers are lost (one request is on the wire at a time, so the
 * last one the bridge executed is this one or the one before).  Returns
 * 0 with *data, -EFAULT (RANGE), -EPROTO (BAD_OP or a foreign answer),
 * -ETIMEDOUT, or -errno of the socket. */
static int exchange(struct tg_ethdev *e, uint8_t *f, size_t len, uint64_t *data)
{
	uint8_t r[MAX_FRAME];
	unsigned op = f[TG_BRIDGE_OFF_OP], status = 0;
	uint16_t seq = (uint16_t)__tg_get_be(f + TG_BRIDGE_OFF_SEQ, 2);
	uint64_t v = 0;
	int rc;

	e->requests++;
	for (unsigned t = 0; t < TRIES; t++) {
		uint64_t end;

		if (t) {
			e->resends++;
			f[TG_BRIDGE_OFF_OP] = (uint8_t)(op | TG_BRIDGE_OP_RESEND);
		}
		if ((rc = send_frame(e, f, len)))
			return rc;
		end = mono_ms() + e->timeout_ms;
		for (;;) {
			uint64_t now = mono_ms();
			struct pollfd p = { .fd = e->fd, .events = POLLIN };
			ssize_t n;

			if (now >= end)
				break;
			rc = poll(&p, 1, (int)(end - now));
			if (rc < 0 && errno != EINTR)
				return -errno;
			if (rc <= 0)
				continue;
			n = recv(e->fd, r, sizeof(r), MSG_DONTWAIT);
			if (n < 0) {
				if (errno == EAGAIN || errno == EINTR)
					continue;
				return -errno;
			}
			if (match(e, r, n, op, seq, &status, &v) == 0)
				goto answered;
		}
	}
	return -ETIMEDOUT;
answered:
	if (status == TG_BRIDGE_ST_RANGE)
		return -EFAULT;
	if (status != TG_BRIDGE_ST_OK)
		return -EPROTO;
	if (data)
		*data = v;
	return 0;
}

/* A single-word request. */
static int call(struct tg_ethdev *e, unsigned op, uint64_t addr, uint64_t wdata, uint8_t strb,
		uint64_t *data)
{
	uint8_t f[FRAME];

	head(e, f, sizeof(f), op, addr, strb, wdata);
	return exchange(e, f, sizeof(f), data);
}

/* A host-port write burst of n words (2..8, inside one 64-byte block):
 * one request, so a burst to the REQ window stays one entry. */
static int call_burst(struct tg_ethdev *e, uint64_t addr, const uint64_t *data,
		      const uint8_t *strb, unsigned n)
{
	uint8_t f[BURST_FRAME];
	uint64_t strobes = 0;
	size_t len = TG_BRIDGE_OFF_WORDS + 8u * n;

	for (unsigned i = 0; i < n; i++)
		strobes |= (uint64_t)(strb ? strb[i] : 0xffu) << (8u * i);
	head(e, f, sizeof(f), TG_BRIDGE_OP_BAR_BURST, addr, (uint8_t)n, strobes);
	for (unsigned i = 0; i < n; i++)
		put_le64(f + TG_BRIDGE_OFF_WORDS + 8u * i, data[i]);
	return exchange(e, f, len < FRAME ? FRAME : len, NULL);
}

static int locked_call(struct tg_ethdev *e, unsigned op, uint64_t addr, uint64_t wdata,
		       uint8_t strb, uint64_t *data)
{
	int rc;

	pthread_mutex_lock(&e->mu);
	rc = call(e, op, addr, wdata, strb, data);
	pthread_mutex_unlock(&e->mu);
	return rc;
}

/* ---- host port ---- */

static int eth_mmio_read(struct tg_dev *dev, uint64_t addr, uint64_t *val)
{
	if (addr & 7u || addr >> TG_BAR_ADDR_BITS)
		return -EINVAL;
	return locked_call(dev->eth, TG_BRIDGE_OP_BAR_READ, addr, 0, 0, val);
}

static int eth_mmio_write(struct tg_dev *dev, uint64_t addr, const uint64_t *data,
			  const uint8_t *strb, unsigned n)
{
	struct tg_ethdev *e = dev->eth;
	int rc = 0;

	if (!n || n > TG_MAX_BURST_BYTES / 8u || addr & 7u ||
	    (addr + 8u * n - 1u) >> TG_BAR_ADDR_BITS)
		return -EINVAL;
	/* the host port's bursts stay inside one aligned 64-byte block */
	if ((addr & (TG_MAX_BURST_BYTES - 1u)) + 8u * n > TG_MAX_BURST_BYTES)
		return -EINVAL;
	pthread_mutex_lock(&e->mu);
	if (n == 1)
		rc = call(e, TG_BRIDGE_OP_BAR_WRITE, addr, data[0], strb ? strb[0] : 0xffu, NULL);
	else
		rc = call_burst(e, addr, data, strb, n);
	pthread_mutex_unlock(&e->mu);
	return rc;
}

static uint64_t eth_cycles(const struct tg_dev *dev)
{
	uint64_t v = 0;

	if (locked_call(dev->eth, TG_BRIDGE_OP_BAR_READ, tg_bar_csr_addr(TG_CSR_REG_CYCLES), 0, 0,
			&v))
		return 0;
	return v;
}

/* ---- host memory ---- */

static int mem_read(struct tg_ethdev *e, uint64_t pa, void *buf, size_t len)
{
	uint8_t *d = buf;
	int rc = 0;

	while (len && !rc) {
		unsigned sh = (unsigned)(pa & 7u), n = 8u - sh;
		uint64_t w;

		if (n > len)
			n = (unsigned)len;
		rc = call(e, TG_BRIDGE_OP_MEM_READ, pa - sh, 0, 0, &w);
		for (unsigned i = 0; i < n && !rc; i++)
			d[i] = (uint8_t)(w >> (8u * (sh + i)));
		d += n;
		pa += n;
		len -= n;
	}
	return rc;
}

static int mem_write(struct tg_ethdev *e, uint64_t pa, const void *buf, size_t len)
{
	const uint8_t *s = buf;
	int rc = 0;

	while (len && !rc) {
		unsigned sh = (unsigned)(pa & 7u), n = 8u - sh;
		uint64_t w = 0;
		uint8_t strb = 0;

		if (n > len)
			n = (unsigned)len;
		for (unsigned i = 0; i < n; i++) {
			w |= (uint64_t)s[i] << (8u * (sh + i));
			strb |= (uint8_t)(1u << (sh + i));
		}
		rc = call(e, TG_BRIDGE_OP_MEM_WRITE, pa - sh, w, strb, NULL);
		s += n;
		pa += n;
		len -= n;
	}
	return rc;
}

static int eth_mem_read(struct tg_dev *dev, uint64_t paddr, void *buf, size_t len)
{
	int rc;

	pthread_mutex_lock(&dev->eth->mu);
	rc = mem_read(dev->eth, paddr, buf, len);
	pthread_mutex_unlock(&dev->eth->mu);
	return rc;
}

static int eth_mem_write(struct tg_dev *dev, uint64_t paddr, const void *buf, size_t len)
{
	int rc;

	pthread_mutex_lock(&dev->eth->mu);
	rc = mem_write(dev->eth, paddr, buf, len);
	pthread_mutex_unlock(&dev->eth->mu);
	return rc;
}

static int eth_mem_rmw(struct tg_dev *dev, uint64_t paddr, uint64_t *expect, uint64_t v,
		       uint64_t *old)
{
	struct tg_ethdev *e = dev->eth;
	uint64_t cur;
	int rc;

	if (paddr & 7u)
		return -EINVAL;
	pthread_mutex_lock(&e->mu);
	rc = call(e, TG_BRIDGE_OP_MEM_READ, paddr, 0, 0, &cur);
	if (!rc && expect) {
		if (cur != *expect) {
			*expect = cur;
		} else {
			rc = call(e, TG_BRIDGE_OP_MEM_WRITE, paddr, v, 0xffu, NULL);
			if (!rc)
				rc = 1;
		}
	} else if (!rc) {
		*old = cur;
		if (cur & v)
			rc = call(e, TG_BRIDGE_OP_MEM_WRITE, paddr, cur & ~v, 0xffu, NULL);
	}
	pthread_mutex_unlock(&e->mu);
	return rc;
}

/* The driver's view of memory and CSRs. */
static int drv_mem_read(void *arg, uint64_t paddr, void *buf, size_t len)
{
	return eth_mem_read(arg, paddr, buf, len);
}

static int drv_mem_write(void *arg, uint64_t paddr, const void *buf, size_t len)
{
	return eth_mem_write(arg, paddr, buf, len);
}

static int drv_mem_rmw(void *arg, uint64_t paddr, uint64_t *expect, uint64_t v, uint64_t *old)
{
	return eth_mem_rmw(arg, paddr, expect, v, old);
}

static int drv_csr_read(void *arg, uint64_t addr, uint64_t *val)
{
	return eth_mmio_read(arg, addr, val);
}

static int drv_csr_write(void *arg, uint64_t addr, uint64_t val)
{
	return eth_mmio_write(arg, addr, &val, NULL, 1);
}

static struct tg_ldrv *eth_ldrv(struct tg_dev *dev)
{
	return dev->eth->drv;
}

/* The driver's interrupt handler: IRQ_STATUS polled through the bridge.
 * A failed poll is tried again at the next tick (a queue it left closed
 * is looked at again then). */
static void *poll_irq(void *arg)
{
	struct tg_ethdev *e = arg;

	pthread_mutex_lock(&e->stop_mu);
	while (!e->stop) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += (long)e->poll_us * 1000;
		ts.tv_sec += ts.tv_nsec / 1000000000;
		ts.tv_nsec %= 1000000000;
		pthread_cond_timedwait(&e->stop_cv, &e->stop_mu, &ts);
		if (e->stop)
			break;
		pthread_mutex_unlock(&e->stop_mu);
		(void)tg__ldrv_service(e->drv);
		pthread_mutex_lock(&e->stop_mu);
	}
	pthread_mutex_unlock(&e->stop_mu);
	return NULL;
}

/* ---- open and close ---- */

/* Bytes of block RAM behind the bridge: it answers RANGE from there on. */
static int probe_mem(struct tg_ethdev *e, uint64_t *bytes)
{
	for (unsigned k = 20; k >= 6; k--) {
		uint64_t w;
		int rc = call(e, TG_BRIDGE_OP_MEM_READ, (1ULL << k) - 8u, 0, 0, &w);

		if (rc == 0) {
			*bytes = 1ULL << k;
			return 0;
		}
		if (rc != -EFAULT)
			return rc;
	}
	return -ENOMEM;
}

static int open_socket(struct tg_ethdev *e, const char *spec, int sim, unsigned *node,
		       int *have_node, char *msg, size_t msg_sz)
{
	char ifname[IF_NAMESIZE];
	const char *colon;
	int rc;

	if (sim) {
		struct sockaddr_un me = { .sun_family = AF_UNIX };

		if (!*spec || strlen(spec) >= sizeof(e->peer.sun_path)) {
			tg__say(msg, msg_sz, "want ethsim:PATH, PATH a socket of tg-board-sim");
			return -EINVAL;
		}
		e->peer.sun_family = AF_UNIX;
		strcpy(e->peer.sun_path, spec);
		e->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		/* an abstract address of our own, for the answers */
		if (e->fd < 0 || bind(e->fd, (struct sockaddr *)&me, sizeof(sa_family_t))) {
			rc = -errno;
			tg__say(msg, msg_sz, "a Unix datagram socket: %s", strerror(errno));
			return rc;
		}
		e->src[0] = 0x02;     /* locally administered: 02:00:00:00:00:01 */
		e->src[5] = 0x01;
		return 0;
	}
	colon = strchr(spec, ':');
	if (colon) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(colon + 1, &end, 10);
		if (colon[1] < '0' || colon[1] > '9' || errno || *end || v > 0xffff) {
			tg__say(msg, msg_sz, "node '%s': want a number 0..65535", colon + 1);
			return -EINVAL;
		}
		*node = (unsigned)v;
		*have_node = 1;
	}
	if (colon ? (size_t)(colon - spec) : strlen(spec)) {
		size_t n = colon ? (size_t)(colon - spec) : strlen(spec);

		if (n >= sizeof(ifname)) {
			tg__say(msg, msg_sz, "interface name too long");
			return -EINVAL;
		}
		memcpy(ifname, spec, n);
		ifname[n] = 0;
	} else {
		tg__say(msg, msg_sz, "want eth:IFNAME or eth:IFNAME:NODE");
		return -EINVAL;
	}
	{
		struct sockaddr_ll ll = { .sll_family = AF_PACKET,
					  .sll_protocol = htons((uint16_t)TG_BRIDGE_ETHERTYPE) };
		struct ifreq ifr;

		ll.sll_ifindex = (int)if_nametoindex(ifname);
		if (!ll.sll_ifindex) {
			rc = -errno;
			tg__say(msg, msg_sz, "interface %s: %s", ifname, strerror(errno));
			return rc == -ENXIO ? -ENODEV : rc;
		}
		e->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC,
			       htons((uint16_t)TG_BRIDGE_ETHERTYPE));
		if (e->fd < 0) {
			rc = -errno;
			tg__say(msg, msg_sz, "a raw socket on %s: %s%s", ifname, strerror(errno),
			    errno == EPERM ? " (needs CAP_NET_RAW)" : "");
			return rc;
		}
		if (bind(e->fd, (struct sockaddr *)&ll, sizeof(ll))) {
			rc = -errno;
			tg__say(msg, msg_sz, "binding to %s: %s", ifname, strerror(errno));
			return rc;
		}
		memset(&ifr, 0, sizeof(ifr));
		memcpy(ifr.ifr_name, ifname, strlen(ifname) + 1);
		if (ioctl(e->fd, SIOCGIFHWADDR, &ifr)) {
			rc = -errno;
			tg__say(msg, msg_sz, "%s's MAC address: %s", ifname, strerror(errno));
			return rc;
		}
		memcpy(e->src, ifr.ifr_hwaddr.sa_data, 6);
	}
	return 0;
}

/* One process drives a board: a lock file named after the interface (or
 * the simulated board's socket) and the node, taken before any request
 * to the board when both are known. */
static int take_board(struct tg_ethdev *e, const char *where, size_t where_len, unsigned node,
		      char *msg, size_t msg_sz)
{
	const char *dir = getenv("TG_ETH_LOCK_DIR");
	char path[PATH_MAX], name[96];
	size_t j = 0;

	/* '/' and ':' made harmless */
	for (size_t i = 0; i < where_len && j + 1 < sizeof(name); i++)
		name[j++] = where[i] == '/' || where[i] == ':' ? '_' : where[i];
	name[j] = 0;
	snprintf(path, sizeof(path), "%s/tg-eth-%s-node%u.lock", dir && *dir ? dir : "/dev/shm",
		 name, node);
	e->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (e->lock_fd < 0) {
		int rc = -errno;

		tg__say(msg, msg_sz, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (flock(e->lock_fd, LOCK_EX | LOCK_NB)) {
		tg__say(msg, msg_sz, "another process drives node %u (%s)", node, path);
		return -EBUSY;
	}
	return 0;
}

int tg__eth_open(struct tg_dev *dev, const char *spec, int sim, unsigned flags, char *msg,
		 size_t msg_sz)
{
	struct tg_ethdev *e;
	const char *tmo = getenv("TG_ETH_TIMEOUT_MS");
	unsigned node = 0;
	int have_node = 0, protect, rc;
	uint64_t v = 0, bytes = 0, paddr, blen = TG_READ_SLOTS * TG_READ_SLOT_SZ + TG_READ_SLOTS * 8u;
	struct tg_drv_qenv env;

	dev->prov = &tg__prov_eth;
	if (flags & ~TG_OPEN_DRIVER) {
		tg__say(msg, msg_sz, "flags 0x%x: only TG_OPEN_DRIVER is defined", flags);
		return -EINVAL;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->fd = -1;
	e->lock_fd = -1;
	if (pthread_mutex_init(&e->mu, NULL)) {
		free(e);
		return -ENOMEM;
	}
	if (pthread_mutex_init(&e->stop_mu, NULL)) {
		pthread_mutex_destroy(&e->mu);
		free(e);
		return -ENOMEM;
	}
	if (pthread_cond_init(&e->stop_cv, NULL)) {
		pthread_mutex_destroy(&e->stop_mu);
		pthread_mutex_destroy(&e->mu);
		free(e);
		return -ENOMEM;
	}
	dev->eth = e;
	dev->flags = flags;
	e->sim = sim;
	e->timeout_ms = sim ? SIM_TIMEOUT_MS : RAW_TIMEOUT_MS;
	if (tmo && *tmo)
		e->timeout_ms = (unsigned)strtoul(tmo, NULL, 10);
	if (!e->timeout_ms)
		e->timeout_ms = 1;
	e->seq = (uint16_t)(getpid() * 2654435761u);
	rc = open_socket(e, spec, sim, &node, &have_node, msg, msg_sz);
	if (rc)
		return rc;
	if (have_node)
		tg_bridge_mac(e->dst, (uint16_t)node);
	else
		memset(e->dst, 0xff, 6);  /* one board on the wire: the first answer */
	/* a simulated board is its socket; a board on a wire whose node is
	 * named is (interface, node): no request before the lock */
	if (sim)
		rc = take_board(e, spec, strlen(spec), 0, msg, msg_sz);
	else if (have_node)
		rc = take_board(e, spec, strcspn(spec, ":"), node, msg, msg_sz);
	if (rc)
		return rc;
	/* identity first: anything else may be a stranger */
	rc = call(e, TG_BRIDGE_OP_BAR_READ, tg_bar_csr_addr(TG_CSR_REG_ID), 0, 0, &dev->id);
	if (rc == -ETIMEDOUT) {
		tg__say(msg, msg_sz, "no bridge answered%s in %u ms", have_node ? " for that node" : "",
		    e->timeout_ms);
		return rc;
	}
	if (!rc && (rc = tg_bar_check_id(dev->id)))
		tg__say(msg, msg_sz, "the NIC's ID is 0x%016llx, this library wants magic 0x%llx "
		    "major %llu", (unsigned long long)dev->id, (unsigned long long)TG_ID_MAGIC,
		    (unsigned long long)TG_VERSION_MAJOR);
	if (!rc)
		rc = call(e, TG_BRIDGE_OP_BAR_READ, tg_bar_csr_addr(TG_CSR_REG_NODE_ID), 0, 0, &v);
	if (rc) {
		if (!*msg)
			tg__say(msg, msg_sz, "reading the NIC's ID: %s", strerror(-rc));
		return rc;
	}
	dev->node = (unsigned)v;
	rc = call(e, TG_BRIDGE_OP_BAR_READ, tg_bar_csr_addr(TG_CSR_REG_CONFIG), 0, 0, &v);
	if (!rc)
		rc = tg__cfg_apply(dev, v);
	if (!rc)
		rc = call(e, TG_BRIDGE_OP_BAR_READ, tg_bar_csr_addr(TG_CSR_REG_CLOCK_KHZ), 0, 0, &v);
	if (!rc)
		dev->clock_khz = (unsigned)v;
	if (rc) {
		tg__say(msg, msg_sz, "reading the NIC's CONFIG: %s", strerror(-rc));
		return rc;
	}
	/* from now on only that board's bridge */
	tg_bridge_mac(e->dst, (uint16_t)dev->node);
	if (!sim && !have_node && (rc = take_board(e, spec, strlen(spec), dev->node, msg, msg_sz)))
		return rc;
	/* MEM_SIZE is 0 after reset: the board's RAM is what remote nodes reach */
	if ((rc = probe_mem(e, &bytes)) ||
	    (rc = call(e, TG_BRIDGE_OP_BAR_READ, tg_bar_csr_addr(TG_CSR_REG_MEM_SIZE), 0, 0, &v)) ||
	    (!v && (rc = call(e, TG_BRIDGE_OP_BAR_WRITE, tg_bar_csr_addr(TG_CSR_REG_MEM_SIZE),
			      bytes, 0xffu, NULL)))) {
		tg__say(msg, msg_sz, "sizing the board's memory: %s", strerror(-rc));
		return rc;
	}
	dev->mem_size = v && v < bytes ? v : bytes;
	if (dev->mem_size < 2u * TG_DRV_GRAN) {
		tg__say(msg, msg_sz, "the board's memory is %llu bytes: the driver needs at least "
			"%u (allocations are %u-byte granules, the first stays unused)",
			(unsigned long long)dev->mem_size, 2u * TG_DRV_GRAN, TG_DRV_GRAN);
		return -ENOMEM;
	}
	dev->mem_size &= ~(uint64_t)(TG_DRV_GRAN - 1u);
	/* every node number the BAR can name, as on PCI */
	dev->nodes = 1u << TG_BAR_NODE_BITS;
	dev->ctx = 0;
	/* a former owner's sticky status: any write clears it */
	rc = call(e, TG_BRIDGE_OP_BAR_WRITE, tg_bar_ctx_addr(0, TG_CTX_REG_STATUS), 0, 0xffu, NULL);
	if (rc) {
		tg__say(msg, msg_sz, "clearing the context's status: %s", strerror(-rc));
		return rc;
	}
	e->io = (struct tg_drv_mmio){ drv_csr_read, drv_csr_write, dev };
	env = (struct tg_drv_qenv){ .io = &e->io, .mem_size = dev->mem_size,
				    .mem_read = drv_mem_read, .mem_write = drv_mem_write,
				    .mem_rmw = drv_mem_rmw, .mem_arg = dev };
	protect = tg__env_is_1("TG_ETH_PROTECT");
	e->drv = tg__ldrv_open(&env, dev->mem_size, protect);
	if (!e->drv) {
		rc = -errno;
		if (rc == -EOPNOTSUPP && protect)
			tg__say(msg, msg_sz, "TG_ETH_PROTECT=1, but the NIC was built without a region table "
				"(CONFIG bit 34): protection cannot be turned on");
		else
			tg__say(msg, msg_sz, "clearing the NIC's queue and region tables: %s", strerror(-rc));
		return rc;
	}
	/* tg_read's fetch buffers and completion words (a NIC without a
	 * fetch table reads a word at a time and needs none) */
	if (!dev->no_fetch) {
		dev->bounce = calloc(1, sizeof(*dev->bounce));
		if (!dev->bounce)
			return -ENOMEM;
		rc = tg_alloc_get(tg__ldrv_alloc(e->drv), blen, 0, dev->ctx, &paddr);
		if (rc) {
			tg__say(msg, msg_sz, "%llu bytes of the board's %llu for tg_read's buffers: %s",
			    (unsigned long long)blen, (unsigned long long)dev->mem_size, strerror(-rc));
			return rc;
		}
		dev->bounce->dev = dev;
		dev->bounce->paddr = paddr;
		dev->bounce->len = blen;
		dev->bounce->access = TG_ACCESS_LOCAL_WRITE;
	}
	tmo = getenv("TG_ETH_POLL_US");
	e->poll_us = tmo && *tmo ? (unsigned)strtoul(tmo, NULL, 10) : POLL_US;
	if (!e->poll_us || e->poll_us > 999999u)
		e->poll_us = POLL_US;
	rc = pthread_create(&e->poller, NULL, poll_irq, e);
	if (rc) {
		tg__say(msg, msg_sz, "starting the interrupt poller: %s", strerror(rc));
		return -rc;
	}
	e->polling = 1;
	return 0;
}

static void eth_close(struct tg_dev *dev)
{
	struct tg_ethdev *e = dev->eth;

	if (!e)
		return;
	if (e->polling) {
		pthread_mutex_lock(&e->stop_mu);
		e->stop = 1;
		pthread_cond_signal(&e->stop_cv);
		pthread_mutex_unlock(&e->stop_mu);
		pthread_join(e->poller, NULL);
	}
	tg__ldrv_close(e->drv, dev->ctx);
	if (e->fd >= 0)
		close(e->fd);
	if (e->lock_fd >= 0)
		close(e->lock_fd);
	pthread_cond_destroy(&e->stop_cv);
	pthread_mutex_destroy(&e->stop_mu);
	pthread_mutex_destroy(&e->mu);
	free(e);
	dev->eth = NULL;
}

const struct tg_prov tg__prov_eth = {
	.name = "eth",
	.local = 1,
	.mmio_read = eth_mmio_read,
	.mmio_write = eth_mmio_write,
	.cycles = eth_cycles,
	.ldrv = eth_ldrv,
	.mem_read = eth_mem_read,
	.mem_write = eth_mem_write,
	.mem_rmw = eth_mem_rmw,
	.close = eth_close,
};
