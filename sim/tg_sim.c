/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* The cluster: clocking of N NICs, their host memories and host ports, the switch, and client rings. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tg/sim.h"
#include "tg/tg_bar.h"
#include "tg/tg_barrier.h"
#include "tg/tg_sim_proto.h"
#include "tgdrv/tg_drv.h"
#include "tg_bridge.h"
#include "tg_dist.h"
#include "tg_memmodel.h"
#include "tg_rng.h"
#include "tg_switch.h"
#include "tg_vnic.h"

#define RESET_CYCLES     16u      /* rst held high this long after creation */
#define SCAN_INTERVAL    64u      /* cycles between looks at slot states */
#define DRV_TIMEOUT      200000u  /* cycles a driver read may take at bring-up */
#define RDQ              32u      /* host-port reads in flight per node (NIC allows 1) */
#define MAX_BURST        (TG_MAX_BURST_BYTES / 8u)
#define CTRL_OPS_PER_CYCLE 4u     /* ALLOC/FREE calls served per node per cycle */
#define SPILL_OWNER      0xFFFFFFFEu /* allocator owner of the NICs' spill rings */
#define STATS_INTERVAL   1024u    /* cycles between copies of the counters to the control region */
#define PPM_PER_PCT      10000u
#define BRIDGE_INTERVAL  16u      /* cycles between looks at the bridge */
#define BRIDGE_BURST     16u      /* frames taken from it per look */

struct beat {
	uint64_t addr, data;
	uint8_t strb, write, last;
};

struct rd_entry {
	uint32_t slot, gen, seq;
};

struct node {
	struct tg_vnic *nic;
	struct tg_memmodel mm;
	uint8_t *mem;
	struct tg_alloc *alloc;
	/* host-port driver: the burst being presented */
	struct beat beats[MAX_BURST];
	unsigned nbeats, cur;
	uint32_t owner, owner_gen, owner_seq;
	/* reads issued on the host port, answered in order */
	struct rd_entry rd[RDQ];
	unsigned rd_head, rd_count;
	unsigned slot_reads[TG_SIMP_SLOTS];  /* reads in flight per slot */
	uint32_t gen[TG_SIMP_SLOTS];         /* bumped when a slot changes owner */
	uint32_t active;                     /* slots served (bit per slot) */
	unsigned rr;
	/* remote-enqueue queues: the driver's table and its interrupt
	 * handler (IRQ_IDLE, or IRQ_WAIT: a read of IRQ_STATUS is out) */
	struct tg_drv_qtable qt;
	struct tg_drv_rtable rt;        /* exported regions */
	uint8_t irq, irq_state;
	/* handshake-rule checking */
	struct tg_vnic_out prev;
	uint8_t prev_mem_fire, prev_tx_fire;
	/* fast-forward: cycles this idle node was not evaluated for */
	uint64_t lag;
	struct tg_sim_stats st;
};

#define IRQ_IDLE  0u
#define IRQ_WAIT  1u

struct tg_sim {
	struct tg_simp_head head;       /* first: what libtg calls (tg_open_sim) */
	struct tg_sim_config cfg;
	unsigned nodes;
	uint64_t cycle;
	struct node *node;
	struct tg_switch *sw;
	struct tg_simp_ctl *ctl;
	uint64_t ctl_bytes;
	char name[TG_SIMP_NAME_MAX];
	int shared;
	unsigned clients;
	uint32_t drv_seq;
	/* distributed (docs/distributed.md): NULL when every node is here;
	 * the ranks' connection belongs to the caller */
	struct tg_dist *dist;
	int ended;              /* tg_sim_end has run */
	char *pcap_path;        /* distributed: the merged capture rank 0 writes */
	char base[TG_SIMP_NAME_MAX];  /* distributed: NAME of the directory this rank wrote */
	unsigned up;            /* nodes brought up so far (in node order) */
	unsigned lookahead;     /* cycles a frame takes at least from a NIC to an output */
	int fail;               /* sticky error of a distributed run */
	char err[256];
	struct tg_bridge *bridge;
	uint64_t bridge_ignored;
	uint8_t bridge_buf[TG_SW_MAX_FRAME];
	uint32_t clock_khz;     /* the NICs' CLOCK_KHZ: 1e9 / ps_per_cycle, rounded */
};

/* Why the last tg_sim_create failed, for tools. */
static char create_err[256];

static int is_local(const struct tg_sim *sim, unsigned n)
{
	return sim->node[n].nic != NULL;
}

void tg_sim_config_init(struct tg_sim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->nodes = 2;
	cfg->mem_size = 64ULL << 20;
	cfg->seed = 1;
	/* the board's core clock and its Gigabit Ethernet links (tg/tg_board.h) */
	cfg->ps_per_cycle = TG_BOARD_CORE_PS;
	cfg->mem_lat_min = 4;
	cfg->mem_lat_max = 4;
	cfg->link_latency = TG_BOARD_CABLE_CYCLES;
	cfg->link_bytes_per_cycle = TG_BOARD_LINK_BYTES;
	cfg->link_overhead_bytes = 20;
	cfg->spill_log2 = 10;
	cfg->reorder_depth = 1;
	cfg->reorder_hold_cycles = 2000;
	cfg->fast_forward = 1;
}

/* ---- shared memory ------------------------------------------------------ */

/* Map `bytes` of fresh zeroed memory: a new shm object when shm_name is
 * set (O_EXCL: refuse to clobber), else anonymous memory. */
static void *map_region(const char *shm_name, uint64_t bytes, int *err)
{
	void *p;
	int fd;

	if (!shm_name) {
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED) {
			*err = errno;
			return NULL;
		}
		return p;
	}
	fd = shm_open(shm_name, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		*err = errno;
		return NULL;
	}
	if (ftruncate(fd, (off_t)bytes) < 0) {
		*err = errno;
		goto err_fd;
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		*err = errno;
		goto err_fd;
	}
	close(fd);
	return p;

err_fd:
	close(fd);
	shm_unlink(shm_name);
	return NULL;
}

/* Remove the objects of a simulator of this name that died without
 * cleaning up.  Returns 0, or -EEXIST if one is running. */
static int clear_stale(const char *name, unsigned max_nodes)
{
	char obj[128];
	struct tg_simp_ctl *ctl;
	int fd, alive = 0;

	tg_simp_obj_name(obj, sizeof(obj), name, -1);
	fd = shm_open(obj, O_RDONLY, 0);
	if (fd < 0)
		return 0;
	ctl = mmap(NULL, sizeof(*ctl), PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (ctl != MAP_FAILED) {
		/* a control region, or the directory of a split cluster */
		int32_t pid = ctl->magic == TG_SIMP_MAGIC ? ctl->pid :
			      ctl->magic == TG_SIMP_DIR_MAGIC ?
			      ((const struct tg_simp_dir *)(const void *)ctl)->pid : 0;

		if (pid > 0 && (kill(pid, 0) == 0 || errno == EPERM))
			alive = 1;
		munmap(ctl, sizeof(*ctl));
	}
	if (alive)
		return -EEXIST;
	shm_unlink(obj);
	for (unsigned n = 0; n < max_nodes; n++) {
		tg_simp_obj_name(obj, sizeof(obj), name, (int)n);
		shm_unlink(obj);
	}
	return 0;
}

/* ---- client slots ------------------------------------------------------- */

static struct tg_simp_slot *slot_of(struct tg_sim *sim, unsigned n, unsigned s)
{
	return tg_simp_slot(sim->ctl, n, s);
}

static unsigned resp_room(struct tg_simp_slot *sl)
{
	uint64_t used = TG_ATOMIC_LOAD_OWN(&sl->resp_tail) -
			TG_ATOMIC_LOAD_ACQ(&sl->resp_head);  /* client's head: entries it freed */

	return TG_SIMP_RESP_ENTRIES - (unsigned)used;
}

/* Post a response; the caller made sure there is room. */
static void respond(struct tg_simp_slot *sl, uint32_t seq, int err, uint64_t data)
{
	uint64_t t = TG_ATOMIC_LOAD_OWN(&sl->resp_tail);
	struct tg_simp_resp *r = &sl->resp[t & (TG_SIMP_RESP_ENTRIES - 1)];

	r->data = data;
	r->seq = seq;
	r->err = err;
	/* the entry is written before the client can see the new tail */
	TG_ATOMIC_STORE_REL(&sl->resp_tail, t + 1);
}

struct drv_io {
	struct tg_sim *sim;
	unsigned node;
};

static void node_qenv(struct tg_sim *sim, unsigned n, struct drv_io *io, struct tg_drv_mmio *mmio,
		      struct tg_drv_qenv *env);

/* Return slot s of node n to the free pool (its client left or died). */
static void slot_release(struct tg_sim *sim, unsigned n, unsigned s)
{
	struct node *nd = &sim->node[n];
	struct tg_simp_slot *sl = slot_of(sim, n, s);
	struct drv_io io;
	struct tg_drv_mmio mmio;
	struct tg_drv_qenv env;

	if (nd->active & (1u << s))
		sim->clients--;
	node_qenv(sim, n, &io, &mmio, &env);
	tg_drv_queue_destroy_owner(&env, &nd->qt, s);
	tg_drv_region_revoke_owner(&mmio, &nd->rt, s);
	tg_alloc_put_owner(nd->alloc, s);
	nd->gen[s]++;          /* read answers still on their way get dropped */
	nd->slot_reads[s] = 0;
	nd->active &= ~(1u << s);
	atomic_store_explicit(&sl->req_tail, 0, memory_order_relaxed);
	atomic_store_explicit(&sl->req_head, 0, memory_order_relaxed);
	atomic_store_explicit(&sl->resp_tail, 0, memory_order_relaxed);
	atomic_store_explicit(&sl->resp_head, 0, memory_order_relaxed);
	atomic_store_explicit(&sl->space_sleep, 0, memory_order_relaxed);
	sl->flags = 0;
	atomic_store_explicit(&sl->pid, 0, memory_order_relaxed);
	/* the reset counters are visible before the slot can be claimed again */
	TG_ATOMIC_STORE_REL(&sl->state, TG_SIMP_S_FREE);
}

/* Driver slot: post one single-beat write (the simulator is the producer). */
static int drv_post(struct tg_sim *sim, unsigned n, uint8_t op, uint64_t addr, uint64_t data)
{
	struct tg_simp_slot *sl = slot_of(sim, n, TG_SIMP_DRV_SLOT);
	uint64_t t = TG_ATOMIC_LOAD_OWN(&sl->req_tail);
	struct tg_simp_req *r;

	if (t - TG_ATOMIC_LOAD_ACQ(&sl->req_head) >= TG_SIMP_REQ_ENTRIES)
		return -EAGAIN;
	r = &sl->req[t & (TG_SIMP_REQ_ENTRIES - 1)];
	memset(r, 0, sizeof(*r));
	r->addr = addr;
	r->data = data;
	r->op = op;
	r->strb = 0xff;
	r->last = 1;
	r->seq = ++sim->drv_seq;
	/* entry before tail */
	TG_ATOMIC_STORE_REL(&sl->req_tail, t + 1);
	return 0;
}

static int drv_write(void *arg, uint64_t addr, uint64_t val)
{
	struct drv_io *io = arg;

	return drv_post(io->sim, io->node, TG_SIMP_OP_WRITE, addr, val);
}

static int drv_read(void *arg, uint64_t addr, uint64_t *val)
{
	struct drv_io *io = arg;
	struct tg_simp_slot *sl = slot_of(io->sim, io->node, TG_SIMP_DRV_SLOT);
	uint64_t h = TG_ATOMIC_LOAD_OWN(&sl->resp_head);
	int rc = drv_post(io->sim, io->node, TG_SIMP_OP_READ, addr, 0);

	if (rc)
		return rc;
	for (unsigned i = 0; i < DRV_TIMEOUT; i++) {
		if (TG_ATOMIC_LOAD_ACQ(&sl->resp_tail) != h) {
			const struct tg_simp_resp *r = &sl->resp[h & (TG_SIMP_RESP_ENTRIES - 1)];

			*val = r->data;
			rc = r->err;
			TG_ATOMIC_STORE_REL(&sl->resp_head, h + 1);
			return rc;
		}
		if ((rc = tg_sim_step(io->sim, 1)))
			return rc;
	}
	return -ETIMEDOUT;
}

/* The queue code's view of node n: posted writes through the driver
 * slot, the node's memory and allocator.  io and mmio are filled too. */
static void node_qenv(struct tg_sim *sim, unsigned n, struct drv_io *io, struct tg_drv_mmio *mmio,
		      struct tg_drv_qenv *env)
{
	*io = (struct drv_io){ sim, n };
	*mmio = (struct tg_drv_mmio){ drv_read, drv_write, io };
	*env = (struct tg_drv_qenv){ .io = mmio, .mem = sim->node[n].mem,
				     .mem_size = sim->cfg.mem_size, .alloc = sim->node[n].alloc };
}

/* Interrupt handler of node n, run every cycle while its irq is high or a
 * status read is out.  It never waits: the IRQ_STATUS read goes through
 * the driver slot like any MMIO and is picked up when it answers. */
static void irq_service(struct tg_sim *sim, unsigned n)
{
	struct node *nd = &sim->node[n];
	struct tg_simp_slot *sl = slot_of(sim, n, TG_SIMP_DRV_SLOT);
	struct drv_io io;
	struct tg_drv_mmio mmio;
	struct tg_drv_qenv env;
	struct tg_simp_qnode *qn = tg_simp_qnode(sim->ctl, n);
	uint64_t h, st;
	uint32_t woke = 0;

	if (nd->irq_state == IRQ_IDLE) {
		if (drv_post(sim, n, TG_SIMP_OP_READ, tg_bar_csr_addr(TG_CSR_REG_IRQ_STATUS), 0) == 0)
			nd->irq_state = IRQ_WAIT;
		return;
	}
	h = TG_ATOMIC_LOAD_OWN(&sl->resp_head);
	if (TG_ATOMIC_LOAD_ACQ(&sl->resp_tail) == h)  /* the answer's entry is written */
		return;
	st = sl->resp[h & (TG_SIMP_RESP_ENTRIES - 1)].data & nd->qt.irq_mask;
	/* entry read: hand it back */
	TG_ATOMIC_STORE_REL(&sl->resp_head, h + 1);
	if (!st) {
		nd->irq_state = IRQ_IDLE;
		return;
	}
	node_qenv(sim, n, &io, &mmio, &env);
	tg_drv_queue_irq(&env, &nd->qt, st, &woke);
	for (unsigned i = 0; woke && i < 16; i++) {
		if (!(woke & (1u << i)))
			continue;
		/* waiters re-check the queue after seeing the new count */
		TG_ATOMIC_ADD_REL(&qn->wake[i], 1u);
		syscall(SYS_futex, &qn->wake[i], FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	}
	/* the clearing writes are ahead of this read in the driver slot:
	 * its answer shows only causes raised since */
	if (drv_post(sim, n, TG_SIMP_OP_READ, tg_bar_csr_addr(TG_CSR_REG_IRQ_STATUS), 0))
		nd->irq_state = IRQ_IDLE;
}

/* Driver calls about queues from client slot s of node n.  Returns 1 if
 * the call is answered with (err, data). */
static int queue_call(struct tg_sim *sim, unsigned n, unsigned s, const struct tg_simp_req *r,
		      int *err, uint64_t *data)
{
	struct node *nd = &sim->node[n];
	struct drv_io io;
	struct tg_drv_mmio mmio;
	struct tg_drv_qenv env;
	uint64_t pa = 0;
	unsigned idx = 0;

	node_qenv(sim, n, &io, &mmio, &env);
	*data = 0;
	switch (r->op) {
	case TG_SIMP_OP_QCREATE:
		*err = tg_drv_queue_create(&env, &nd->qt, (unsigned)(r->addr & 0xffu),
					   (unsigned)(r->addr >> 8 & 0xffu), s, &pa, &idx);
		*data = pa | (uint64_t)idx << 32;
		return 1;
	case TG_SIMP_OP_QDESTROY:
		*err = tg_drv_queue_destroy(&env, &nd->qt, r->addr, s);
		return 1;
	case TG_SIMP_OP_QGROW:
		*err = tg_drv_queue_grow(&env, &nd->qt, r->addr);
		/* the table index: attached consumers wait on its counter */
		*data = (uint64_t)tg_drv_queue_find(&nd->qt, r->addr) & 15u;
		return 1;
	case TG_SIMP_OP_QARM:
		*err = tg_drv_queue_arm(&env, &nd->qt, r->addr);
		return *err != 0;
	default:  /* TG_SIMP_OP_QFREEBUF */
		*err = tg_drv_queue_freebuf(&env, &nd->qt, r->addr, r->data);
		return *err != 0;
	}
}

/* Region calls of client slot s of node n: export memory the client
 * owns (a block it allocated, or the first buffer of a queue it made), or
 * revoke one of its regions.  Returns 0 or -errno; *key gets the key. */
static int region_call(struct tg_sim *sim, unsigned n, unsigned s, const struct tg_simp_req *r,
		       uint64_t *key)
{
	struct node *nd = &sim->node[n];
	struct drv_io io;
	struct tg_drv_mmio mmio;
	struct tg_drv_qenv env;

	node_qenv(sim, n, &io, &mmio, &env);
	if (r->op == TG_SIMP_OP_RREVOKE)
		return tg_drv_region_revoke(&mmio, &nd->rt, r->addr, s);
	return tg_drv_region_export_owned(&env, &nd->qt, &nd->rt, r->addr & 0xffffffffu, r->data,
					  (unsigned)(r->addr >> 32 & 0xffu), s, key);
}

/* Look at the client slots: open new ones, close those that left. */
static void scan_slots(struct tg_sim *sim)
{
	for (unsigned n = 0; n < sim->nodes; n++) {
		struct node *nd = &sim->node[n];

		if (!is_local(sim, n))
			continue;
		for (unsigned s = 0; s < TG_SIMP_CTX_SLOTS; s++) {
			struct tg_simp_slot *sl = slot_of(sim, n, s);
			uint32_t st = TG_ATOMIC_LOAD_ACQ(&sl->state);  /* then read pid/flags */

			if (st == TG_SIMP_S_ATTACH) {
				struct drv_io io = { sim, n };
				struct tg_drv_mmio mmio = { drv_read, drv_write, &io };

				nd->gen[s]++;
				nd->slot_reads[s] = 0;
				nd->active |= 1u << s;
				sim->clients++;
				/* the driver slot goes first, so this reaches the
				 * NIC before anything of the new client */
				tg_drv_ctx_open(&mmio, s);
				TG_ATOMIC_STORE_REL(&sl->state, TG_SIMP_S_ACTIVE);
			} else if (st == TG_SIMP_S_CLOSING &&
				   TG_ATOMIC_LOAD_ACQ(&sl->req_tail) ==
				   TG_ATOMIC_LOAD_OWN(&sl->req_head)) {
				slot_release(sim, n, s);  /* drained: posted writes went out */
			}
		}
	}
}

int tg_sim_reap(struct tg_sim *sim)
{
	int freed = 0;

	if (!sim)
		return 0;
	for (unsigned n = 0; n < sim->nodes; n++) {
		if (!is_local(sim, n))
			continue;
		for (unsigned s = 0; s < TG_SIMP_CTX_SLOTS; s++) {
			struct tg_simp_slot *sl = slot_of(sim, n, s);
			uint32_t st = TG_ATOMIC_LOAD_ACQ(&sl->state);
			int32_t pid = atomic_load_explicit(&sl->pid, memory_order_relaxed);

			/* a closing slot drains its posted writes first (scan_slots) */
			if (st == TG_SIMP_S_FREE || st == TG_SIMP_S_CLOSING || pid <= 0)
				continue;
			if (kill(pid, 0) == 0 || errno != ESRCH)
				continue;
			slot_release(sim, n, s);
			freed++;
		}
	}
	return freed;
}

/* ---- host-port driver --------------------------------------------------- */

/* Check a client's beat against the host-port rules and the client's
 * rights; stamp its context into data-window addresses. */
static int check_beat(unsigned s, uint32_t flags, struct beat *b)
{
	uint64_t off, own;

	if (b->addr & 7u || b->addr >> TG_BAR_ADDR_BITS)
		return -EINVAL;
	if (s == TG_SIMP_DRV_SLOT)
		return 0;
	if (tg_bar_win(b->addr) != TG_WIN_CTRL) {
		/* data windows: the NIC checks rights by this field */
		b->addr = (b->addr & ~(TG_BAR_FIELD_MASK(TG_BAR_CTX_BITS) << TG_BAR_CTX_SHIFT)) |
			  (uint64_t)s << TG_BAR_CTX_SHIFT;
		return 0;
	}
	off = b->addr & TG_BAR_FIELD_MASK(TG_BAR_WIN_SHIFT);
	own = TG_CTRL_CTX_BASE + s * TG_PAGE_SIZE;
	if (off >= own && off < own + TG_PAGE_SIZE)
		return 0;           /* own context page */
	if (off - TG_CTRL_CSR_BASE < TG_PAGE_SIZE) {  /* unsigned: also off >= base */
		if (flags & TG_SIMP_F_DRIVER)
			return 0;
		/* identity and configuration are readable by all, like PCI
		 * config space */
		if (!b->write && (off == TG_CTRL_CSR_BASE + TG_CSR_REG_ID ||
				  off == TG_CTRL_CSR_BASE + TG_CSR_REG_CONFIG ||
				  off == TG_CTRL_CSR_BASE + TG_CSR_REG_CLOCK_KHZ))
			return 0;
	}
	return -EPERM;
}

/* The simulator has consumed the slot's request entries below head: the
 * client may reuse them.  A client asleep waiting for room is woken
 * (the fence orders the head before the look at its flag, as the client's
 * orders its flag before its look at the head). */
static void consumed(struct tg_simp_slot *sl, uint64_t head)
{
	TG_ATOMIC_STORE_REL(&sl->req_head, head);
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&sl->space_sleep, memory_order_relaxed)) {
		TG_ATOMIC_ADD_REL(&sl->space_wake, 1u);
		syscall(SYS_futex, &sl->space_wake, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	}
}

/* A request waits in slot s of node n's ring. */
static int slot_pending(struct tg_sim *sim, unsigned n, unsigned s)
{
	struct tg_simp_slot *sl = slot_of(sim, n, s);

	return TG_ATOMIC_LOAD_ACQ(&sl->req_tail) != TG_ATOMIC_LOAD_OWN(&sl->req_head);
}

/* Take the next burst of slot s into the node's host-port driver, or serve
 * its driver calls.  Returns 1 if a burst was loaded. */
static int take_from_slot(struct tg_sim *sim, unsigned n, unsigned s)
{
	struct node *nd = &sim->node[n];
	struct tg_simp_slot *sl = slot_of(sim, n, s);
	uint64_t head = TG_ATOMIC_LOAD_OWN(&sl->req_head);
	uint64_t tail = TG_ATOMIC_LOAD_ACQ(&sl->req_tail);  /* entries below it are written */
	unsigned ctrl_ops = 0;

	while (head != tail) {
		const struct tg_simp_req *r = &sl->req[head & (TG_SIMP_REQ_ENTRIES - 1)];
		uint32_t seq = r->seq;
		unsigned nb = 0;
		int err = 0;

		if (tail - head > TG_SIMP_REQ_ENTRIES)
			break;                  /* corrupt counters: ignore the slot */
		/* every path below may answer once, plus the reads in flight */
		if (resp_room(sl) <= nd->slot_reads[s])
			break;
		if (r->op >= TG_SIMP_OP_QCREATE && r->op <= TG_SIMP_OP_QFREEBUF) {
			uint64_t d;

			if (++ctrl_ops > CTRL_OPS_PER_CYCLE)
				break;
			if (queue_call(sim, n, s, r, &err, &d))
				respond(sl, seq, err, d);
			head++;
			/* consumed: the client may reuse the entry */
			consumed(sl, head);
			/* the CSR writes the call posted on the driver slot go to
			 * the host port before this client's next request */
			return 0;
		}
		if (r->op == TG_SIMP_OP_REXPORT || r->op == TG_SIMP_OP_RREVOKE) {
			uint64_t key = 0;

			if (++ctrl_ops > CTRL_OPS_PER_CYCLE)
				break;
			err = region_call(sim, n, s, r, &key);
			respond(sl, seq, err, key);
			head++;
			consumed(sl, head);
			return 0;
		}
		if (r->op == TG_SIMP_OP_ALLOC || r->op == TG_SIMP_OP_FREE) {
			uint64_t pa = 0;

			if (++ctrl_ops > CTRL_OPS_PER_CYCLE)
				break;
			if (r->op == TG_SIMP_OP_ALLOC) {
				err = tg_alloc_get(nd->alloc, r->addr, r->data, s, &pa);
				respond(sl, seq, err, pa);
			} else {
				err = tg_alloc_put(nd->alloc, r->addr, s);
				if (err)
					respond(sl, seq, err, 0);
			}
			head++;
			/* consumed: the client may reuse the entry */
			consumed(sl, head);
			continue;
		}
		if (r->op == TG_SIMP_OP_READ) {
			if (nd->rd_count)
				break;          /* the NIC takes one read at a time */
			nd->beats[0] = (struct beat){ .addr = r->addr, .write = 0, .last = 1,
						      .strb = 0 };
			nb = 1;
			if (!r->last)
				err = -EINVAL;
		} else if (r->op == TG_SIMP_OP_WRITE) {
			/* a burst is used only once its last beat is in the ring */
			for (;;) {
				const struct tg_simp_req *b =
					&sl->req[(head + nb) & (TG_SIMP_REQ_ENTRIES - 1)];

				if (head + nb == tail)
					return 0;  /* incomplete: look again later */
				if (b->op != TG_SIMP_OP_WRITE) {
					err = -EINVAL;
					break;
				}
				if (nb < MAX_BURST)
					nd->beats[nb] = (struct beat){ .addr = b->addr, .data = b->data,
								       .strb = b->strb, .write = 1,
								       .last = b->last };
				nb++;
				if (b->last)
					break;
				if (nb > MAX_BURST) {
					err = -EINVAL;
					break;
				}
			}
			if (!err && nb > MAX_BURST)
				err = -EINVAL;
			for (unsigned i = 1; !err && i < nb; i++)
				if (nd->beats[i].addr != nd->beats[0].addr + 8u * i)
					err = -EINVAL;  /* not consecutive words */
			if (!err && (nd->beats[0].addr >> 6) != (nd->beats[nb - 1].addr >> 6))
				err = -EINVAL;          /* crosses a 64-byte block */
		} else {
			nb = 1;
			err = -EINVAL;
		}
		for (unsigned i = 0; !err && i < nb; i++)
			err = check_beat(s, sl->flags, &nd->beats[i]);
		head += nb;
		/* consumed (copied into the driver): the client may reuse them */
		consumed(sl, head);
		if (err) {
			nd->st.host_rejects++;
			respond(sl, seq, err, 0);
			continue;
		}
		nd->nbeats = nb;
		nd->cur = 0;
		nd->owner = s;
		nd->owner_gen = nd->gen[s];
		nd->owner_seq = seq;
		return 1;
	}
	return 0;
}

/* Give the host port its next burst: the driver slot first, then the
 * clients round robin. */
static void feed_host_port(struct tg_sim *sim, unsigned n)
{
	struct node *nd = &sim->node[n];
	uint32_t act = nd->active, ctx, rot;

	if (nd->cur < nd->nbeats || !act)
		return;
	if ((act & (1u << TG_SIMP_DRV_SLOT)) && slot_pending(sim, n, TG_SIMP_DRV_SLOT) &&
	    take_from_slot(sim, n, TG_SIMP_DRV_SLOT))
		return;
	/* the served context slots from rr on, round robin: bit i of rot is
	 * slot (rr + i) % TG_SIMP_CTX_SLOTS */
	ctx = act & ((1u << TG_SIMP_CTX_SLOTS) - 1u);
	rot = (ctx >> nd->rr | ctx << (TG_SIMP_CTX_SLOTS - nd->rr)) &
	      ((1u << TG_SIMP_CTX_SLOTS) - 1u);
	for (; rot; rot &= rot - 1u) {
		unsigned s = (nd->rr + (unsigned)__builtin_ctz(rot)) % TG_SIMP_CTX_SLOTS;

		if (slot_pending(sim, n, s) && take_from_slot(sim, n, s)) {
			nd->rr = (s + 1) % TG_SIMP_CTX_SLOTS;
			return;
		}
	}
}

static void host_resp(struct tg_sim *sim, unsigned n, uint64_t rdata)
{
	struct node *nd = &sim->node[n];
	struct rd_entry *e;

	if (!nd->rd_count) {
		nd->st.proto_errors++;  /* an answer nobody asked for */
		return;
	}
	e = &nd->rd[nd->rd_head];
	nd->rd_head = (nd->rd_head + 1) % RDQ;
	nd->rd_count--;
	if (e->gen != nd->gen[e->slot])
		return;                  /* its client is gone */
	nd->slot_reads[e->slot]--;
	respond(slot_of(sim, n, e->slot), e->seq, 0, rdata);
}

/* ---- the clock ---------------------------------------------------------- */

/* Fast-forward applies: on, and no program of another process attached
 * (those time their own work in simulated cycles: with them attached,
 * simulated time passes as fast as evaluating every cycle makes it). */
static int ff_on(const struct tg_sim *sim)
{
	return sim->cfg.fast_forward && !(sim->shared && sim->clients);
}

/* One cycle of node n; with skip > 0 (fast-forward, the node idle) an edge
 * that stands for skip + 1 cycles, with nothing fed to the host port. */
static void node_cycle(struct tg_sim *sim, unsigned n, uint32_t skip)
{
	struct node *nd = &sim->node[n];
	uint64_t now = sim->cycle;
	struct tg_vnic_in in;
	struct tg_vnic_out out;
	const struct beat *b = NULL;
	int host_fire, mem_fire, tx_fire, rx_fire;

	memset(&in, 0, sizeof(in));
	in.rst = now < RESET_CYCLES;
	in.clock_khz = sim->clock_khz;
	in.ff_skip = skip;
	if (!in.rst && !skip) {
		feed_host_port(sim, n);
		if (nd->cur < nd->nbeats)
			b = &nd->beats[nd->cur];
	}
	if (b) {
		in.host_req_valid = 1;
		in.host_req_write = b->write;
		in.host_req_addr = b->addr;
		in.host_req_wdata = b->data;
		in.host_req_wstrb = b->strb;
		in.host_req_last = b->last;
	}
	in.host_resp_ready = 1;
	tg_mm_outputs(&nd->mm, now, &in.mem_req_ready, &in.mem_resp_valid, &in.mem_resp_rdata);
	tg_switch_outputs(sim->sw, n, now, &in.tx_tready, &in.rx_tvalid, &in.rx_tdata,
			  &in.rx_tkeep, &in.rx_tlast, &in.rx_tuser);

	/* An idle NIC with quiet inputs is not evaluated (fast-forward): it
	 * owes the cycles (the models above drew for them as for any
	 * cycle). So is a NIC that only waits at its network port for the
	 * next beat to come in or for a beat it offers to be taken, in a
	 * cycle that takes none. The edge that evaluates it again stands for
	 * the owed cycles too: in them the NIC changed nothing but its
	 * free-running counts, which ff_skip advances, and the one thing a
	 * waiting NIC does in the first of them (tg_eth_tx keeping the
	 * payload word it reads) it does in that edge alike, as the word
	 * read stays the same while the beat waits; no block reads those
	 * counts in that edge, as every port is a register and the core
	 * between them waits. */
	if (ff_on(sim) && !in.rst && !b && !in.mem_resp_valid && !in.rx_tvalid &&
	    nd->lag + skip < UINT32_MAX && tg_vnic_quiet(nd->nic, in.tx_tready) &&
	    tg_vnic_irq(nd->nic) == nd->irq) {
		nd->lag += (uint64_t)skip + 1;
		nd->st.ff_cycles += (uint64_t)skip + 1;
		return;
	}
	if (nd->lag && nd->lag + skip <= UINT32_MAX) {
		in.ff_skip = (uint32_t)(nd->lag + skip);
		nd->lag = 0;
	} else if (nd->lag) {
		/* too many for one edge: one with quiet inputs makes them up */
		struct tg_vnic_in q;
		struct tg_vnic_out o;

		memset(&q, 0, sizeof(q));
		q.clock_khz = sim->clock_khz;
		q.host_resp_ready = 1;
		q.mem_req_ready = 1;
		q.tx_tready = 0;   /* (a beat offered was not taken meanwhile) */
		q.ff_skip = (uint32_t)(nd->lag - 1);
		tg_vnic_settle(nd->nic, &q, &o, now - nd->lag);
		tg_vnic_posedge(nd->nic, now - nd->lag);
		nd->lag = 0;
		nd->st.ff_cycles--;   /* that edge evaluated one of them */
	}
	nd->st.ff_cycles += skip;     /* the edge below stands for them too */

	tg_vnic_settle(nd->nic, &in, &out, now);
	host_fire = in.host_req_valid && out.host_req_ready;
	mem_fire = out.mem_req_valid && in.mem_req_ready;
	tx_fire = out.tx_tvalid && in.tx_tready;
	rx_fire = in.rx_tvalid && out.rx_tready;
	tg_vnic_posedge(nd->nic, now);
	nd->irq = out.irq;
	if (in.rst)
		goto out;

	/* a valid the NIC raised stays up, with the same payload, until taken */
	if (nd->prev.mem_req_valid && !nd->prev_mem_fire &&
	    (!out.mem_req_valid || out.mem_req_addr != nd->prev.mem_req_addr ||
	     out.mem_req_write != nd->prev.mem_req_write))
		nd->st.proto_errors++;
	if (nd->prev.tx_tvalid && !nd->prev_tx_fire &&
	    (!out.tx_tvalid || out.tx_tdata != nd->prev.tx_tdata))
		nd->st.proto_errors++;
	nd->prev = out;
	nd->prev_mem_fire = (uint8_t)mem_fire;
	nd->prev_tx_fire = (uint8_t)tx_fire;

	if (host_fire) {
		if (b->write) {
			nd->st.host_writes++;
		} else {
			struct rd_entry *e = &nd->rd[(nd->rd_head + nd->rd_count) % RDQ];

			nd->st.host_reads++;
			*e = (struct rd_entry){ nd->owner, nd->owner_gen, nd->owner_seq };
			nd->rd_count++;
			nd->slot_reads[nd->owner]++;
		}
		nd->cur++;
	}
	if (out.host_resp_valid)
		host_resp(sim, n, out.host_resp_rdata);
	if (mem_fire) {
		if (out.mem_req_addr & 7u)
			nd->st.proto_errors++;
		tg_mm_accept(&nd->mm, now, out.mem_req_write, out.mem_req_addr,
			     out.mem_req_wdata, out.mem_req_wstrb);
	}
	if (tx_fire && tg_switch_tx_beat(sim->sw, n, now, out.tx_tdata, out.tx_tkeep,
					 out.tx_tlast))
		nd->st.proto_errors++;
	if (rx_fire)
		tg_switch_rx_fire(sim->sw, n);
out:
	return;
}

_Static_assert(sizeof(struct tg_sim_stats) % sizeof(uint64_t) == 0 &&
	       sizeof(struct tg_sim_stats) / sizeof(uint64_t) <= TG_SIMP_STATS_WORDS,
	       "struct tg_sim_stats does not fit the control region's copy");

static void node_stats(const struct tg_sim *sim, unsigned n, struct tg_sim_stats *s);

/* Copy every node's counters to the control region (for tools). */
static void publish_stats(struct tg_sim *sim)
{
	struct tg_simp_stats *ps = (struct tg_simp_stats *)((uint8_t *)sim->ctl +
							     sim->ctl->stats_offset);

	for (unsigned n = 0; n < sim->nodes; n++, ps++) {
		struct tg_sim_stats s;
		uint64_t w[sizeof(s) / sizeof(uint64_t)];
		uint64_t g = atomic_load_explicit(&ps->gen, memory_order_relaxed);

		if (!is_local(sim, n))
			continue;
		node_stats(sim, n, &s);
		memcpy(w, &s, sizeof(s));
		/* odd generation before the words change (seqlock writer) */
		atomic_store_explicit(&ps->gen, g + 1, memory_order_relaxed);
		TG_MB();  /* the odd generation is seen before any new word */
		atomic_store_explicit(&ps->cycle, sim->cycle, memory_order_relaxed);
		for (unsigned i = 0; i < sizeof(w) / sizeof(w[0]); i++)
			atomic_store_explicit(&ps->v[i], w[i], memory_order_relaxed);
		/* the words are written before the even generation */
		TG_ATOMIC_STORE_REL(&ps->gen, g + 2);
	}
}

/* Distributed: wait until the peers let this process run cycle
 * sim->cycle.  While nodes are being brought up the lookahead is one
 * cycle, so every process sees each bring-up end in the cycle it ends. */
static int dist_sync(struct tg_sim *sim)
{
	int rc;

	if (!sim->dist)
		return 0;
	if (sim->fail)
		return sim->fail;
	rc = sim->dist->ops->sync(sim->dist, sim->cycle, sim->up,
				  sim->up < sim->nodes ? 1u : sim->lookahead);
	if (!rc && sim->sw->remote_err) {
		rc = sim->sw->remote_err;
		snprintf(sim->err, sizeof(sim->err), "sending a frame: %s", strerror(-rc));
	} else if (rc) {
		snprintf(sim->err, sizeof(sim->err), "%s", sim->dist->ops->error(sim->dist));
	}
	sim->fail = rc;
	return rc;
}

static void bridge_tx(void *arg, const uint8_t *data, unsigned len)
{
	tg_bridge_send(arg, data, len);
}

/* Frames received on the bridge enter the switch at their node's port. */
static void bridge_poll(struct tg_sim *sim)
{
	for (unsigned i = 0; i < BRIDGE_BURST; i++) {
		int len = tg_bridge_recv(sim->bridge, sim->bridge_buf, sizeof(sim->bridge_buf));
		const uint8_t *d = sim->bridge_buf;
		unsigned node;

		if (len <= 0)
			return;
		node = (unsigned)d[4] << 8 | d[5];
		if (len < (int)TG_ETH_HDR_BYTES || d[0] != (uint8_t)(TG_MAC_OUI >> 16) ||
		    d[1] != (uint8_t)(TG_MAC_OUI >> 8) || d[2] != (uint8_t)TG_MAC_OUI || d[3] ||
		    node >= sim->nodes || !is_local(sim, node) ||
		    tg_switch_uplink_rx(sim->sw, node, sim->cycle, d, (unsigned)len))
			sim->bridge_ignored++;
	}
}

/* Fast-forward: how many cycles, from this one and at most `left`, may
 * pass in one edge of every NIC (of this rank, and no further than its
 * peers' frames cannot reach in a split cluster).  More than 1 only when
 * every NIC is idle
 * (tg_vnic_idle), its host port has nothing presented, no read answered
 * or interrupt served, its memory model and every client ring are empty
 * and no frame is in the switch: then the cycles would change nothing but
 * the NICs' cycle counters and the models' random draws, which the jump
 * makes too.  A jump ends before the next look at the client slots when
 * one of them is changing hands or clients of another process may come
 * (so requests are seen as often as in wall time), and before the next
 * look at the bridge. */
static uint64_t ff_room(struct tg_sim *sim, uint64_t left)
{
	uint64_t k = left, c = sim->cycle;
	int settled = !sim->shared;

	/* the NICs first: one busy NIC, the common case, ends the look */
	if (left < 2 || !ff_on(sim) || c < RESET_CYCLES)
		return 1;
	/* distributed: no further than the peers' frames cannot reach
	 * (every cycle before the horizon the last sync gave) */
	if (sim->dist) {
		uint64_t h = sim->dist->ops->horizon(sim->dist);

		if (sim->up < sim->nodes || h <= c + 1)
			return 1;
		if (k > h - c)
			k = h - c;
	}
	for (unsigned n = 0; n < sim->nodes; n++) {
		struct node *nd = &sim->node[n];

		if (is_local(sim, n) &&
		    (!tg_vnic_idle(nd->nic) || nd->cur < nd->nbeats || nd->rd_count ||
		     nd->mm.count || nd->irq || tg_vnic_irq(nd->nic) || nd->irq_state != IRQ_IDLE))
			return 1;
	}
	if (!tg_switch_idle(sim->sw))
		return 1;
	for (unsigned n = 0; n < sim->nodes; n++) {
		if (!is_local(sim, n))
			continue;
		for (unsigned s = 0; s < TG_SIMP_SLOTS; s++) {
			uint32_t st;

			if ((sim->node[n].active >> s & 1u) && slot_pending(sim, n, s))
				return 1;
			if (s < TG_SIMP_CTX_SLOTS) {
				st = TG_ATOMIC_LOAD_ACQ(&slot_of(sim, n, s)->state);
				if (st == TG_SIMP_S_ATTACH || st == TG_SIMP_S_CLOSING)
					settled = 0;
			}
		}
	}
	if (!settled && k > SCAN_INTERVAL - c % SCAN_INTERVAL)
		k = SCAN_INTERVAL - c % SCAN_INTERVAL;
	if (sim->bridge && k > BRIDGE_INTERVAL - c % BRIDGE_INTERVAL)
		k = BRIDGE_INTERVAL - c % BRIDGE_INTERVAL;
	if (k > UINT32_MAX)
		k = UINT32_MAX;
	return k;
}

/* The models' random draws of cycles 1 .. k-1 of a jump (the jump's edge
 * made those of its first). */
static void ff_draws(struct tg_sim *sim, uint64_t k)
{
	for (unsigned n = 0; n < sim->nodes; n++)
		if (is_local(sim, n))
			tg_mm_skip_draws(&sim->node[n].mm, k - 1);
	tg_switch_skip_draws(sim->sw, sim->cycle + 1, k - 1);
}

int tg_sim_step(struct tg_sim *sim, uint64_t ncycles)
{
	int rc;
	uint64_t k;

	if (!sim)
		return -EINVAL;
	for (; ncycles; ncycles--) {
		if ((rc = dist_sync(sim)))
			return rc;
		if (sim->cycle % SCAN_INTERVAL == 0)
			scan_slots(sim);
		if (sim->cycle % STATS_INTERVAL == 0 && sim->ctl)
			publish_stats(sim);
		if (sim->bridge && sim->cycle % BRIDGE_INTERVAL == 0)
			bridge_poll(sim);
		k = ff_room(sim, ncycles);
		for (unsigned n = 0; n < sim->nodes; n++)
			if (is_local(sim, n))
				node_cycle(sim, n, (uint32_t)(k - 1));
		if (k > 1)
			ff_draws(sim, k);
		tg_switch_advance(sim->sw, sim->cycle);
		for (unsigned n = 0; n < sim->nodes; n++)
			if (is_local(sim, n) &&
			    (sim->node[n].irq || sim->node[n].irq_state != IRQ_IDLE))
				irq_service(sim, n);
		sim->cycle += k;
		ncycles -= k - 1;
		/* a clock for clients (tg_cycles): a plain counter, no data
		 * is published with it */
		TG_ATOMIC_STORE_CLOCK(&sim->ctl->cycles, sim->cycle);
	}
	return 0;
}

/* ---- creation ----------------------------------------------------------- */

static int vcd_name(char *buf, size_t n, const char *path, unsigned node)
{
	const char *pct = strstr(path, "%u");
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');
	int len;

	if (pct)
		len = snprintf(buf, n, "%.*s%u%s", (int)(pct - path), path, node, pct + 2);
	else if (dot && (!slash || dot > slash))
		len = snprintf(buf, n, "%.*s.%u%s", (int)(dot - path), path, node, dot);
	else
		len = snprintf(buf, n, "%s.%u", path, node);
	return len < 0 || (size_t)len >= n ? -ENAMETOOLONG : 0;
}

static int check_config(const struct tg_sim_config *c)
{
	if (c->nodes < 1 || c->nodes > TG_SIM_MAX_NODES)
		return -EINVAL;
	if (c->mem_size < 2 * TG_DRV_GRAN || c->mem_size % TG_DRV_GRAN ||
	    c->mem_size >= (1ULL << TG_PADDR_BITS))
		return -EINVAL;
	if (!c->mem_lat_min || c->mem_lat_max < c->mem_lat_min || c->mem_lat_max > 100000)
		return -EINVAL;
	if (c->mem_stall_pct > 99 || c->tx_stall_pct > 99 || c->drop_pct > 100 ||
	    c->corrupt_pct > 100)
		return -EINVAL;
	if ((uint64_t)c->drop_pct * PPM_PER_PCT + c->drop_ppm > TG_SW_PPM ||
	    (uint64_t)c->corrupt_pct * PPM_PER_PCT + c->flip_ppm > TG_SW_PPM ||
	    c->dup_ppm > TG_SW_PPM || c->reorder_ppm > TG_SW_PPM ||
	    !c->reorder_depth || c->reorder_depth > 1000 ||
	    !c->reorder_hold_cycles || c->reorder_hold_cycles > 1000000)
		return -EINVAL;
	if (c->noutages && !c->outages)
		return -EINVAL;
	for (unsigned i = 0; i < c->noutages; i++)
		if (c->outages[i].node >= c->nodes || c->outages[i].to <= c->outages[i].from)
			return -EINVAL;
	if (!c->link_bytes_per_cycle || c->link_bytes_per_cycle > 64 ||
	    c->link_overhead_bytes < 8 || c->link_latency > 1000000 || c->switch_latency > 1000000)
		return -EINVAL;
	if (!c->ps_per_cycle || c->spill_log2 > TG_SPILL_MAX_LOG2)
		return -EINVAL;
	if (c->dist) {
		const struct tg_sim_dist *d = c->dist;

		if (!d->owner || !d->link)
			return -EINVAL;
		for (unsigned n = 0; n < c->nodes; n++)
			if (d->owner[n] >= d->link->ops->ranks(d->link))
				return -EINVAL;
		/* a rank serves its nodes as NAME@R */
		if (c->shm_name && strlen(c->shm_name) + 4 >= TG_SIMP_NAME_MAX)
			return -EINVAL;
	}
	if (c->shm_name && (!*c->shm_name || strlen(c->shm_name) >= TG_SIMP_NAME_MAX ||
			    strchr(c->shm_name, '/')))
		return -EINVAL;
	return 0;
}

/* Everything the processes of a distributed cluster must agree on. */
static uint64_t config_digest(const struct tg_sim_config *c)
{
	uint64_t v[] = { c->nodes, c->dist->link->ops->ranks(c->dist->link), c->mem_size, c->seed,
			 c->ps_per_cycle, c->mem_lat_min, c->mem_lat_max, c->mem_stall_pct,
			 c->link_latency, c->switch_latency, c->link_bytes_per_cycle,
			 c->link_overhead_bytes, c->buffer_bytes, c->spill_log2,
			 (uint64_t)!!c->link_layer, c->link_rto, (uint64_t)!!c->protect,
			 c->tx_stall_pct, c->drop_pct, c->corrupt_pct, c->drop_ppm, c->flip_ppm,
			 c->dup_ppm, c->reorder_ppm, c->reorder_depth, c->reorder_hold_cycles,
			 (uint64_t)!!c->pcap_ingress, (uint64_t)!!c->pcap_path, c->noutages };
	uint64_t h = 0xcbf29ce484222325ULL;   /* FNV-1a */

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		for (int b = 0; b < 8; b++)
			h = (h ^ (uint8_t)(v[i] >> (8 * b))) * 0x100000001b3ULL;
	for (unsigned n = 0; n < c->nodes; n++)
		h = (h ^ c->dist->owner[n]) * 0x100000001b3ULL;
	for (unsigned i = 0; i < c->noutages; i++)
		h = (h ^ (c->outages[i].node ^ c->outages[i].from * 31 ^ c->outages[i].to * 131)) *
		    0x100000001b3ULL;
	return h;
}

static int dist_deliver(void *arg, const struct tg_dist_frame *f)
{
	struct tg_sim *sim = arg;

	return tg_switch_inject(sim->sw, f->src, f->dst, f->due, f->seq, f->reorder, f->data,
				f->len);
}

static int dist_send(void *arg, const struct tg_sw_frame *fr)
{
	struct tg_sim *sim = arg;
	struct tg_dist_frame f = { .src = fr->src, .dst = fr->dst, .due = fr->due, .seq = fr->seq,
				   .reorder = fr->reorder, .len = fr->len, .data = fr->data };

	return sim->dist->ops->send(sim->dist, &f);
}

/* The directory of a split cluster on this machine: which rank serves
 * each node, and where (tg_sim_proto.h).  0 or -errno. */
static int write_dir(struct tg_sim *sim, const struct tg_sim_config *cfg)
{
	const struct tg_dist *d = cfg->dist->link;
	struct tg_simp_dir *dir;
	char obj[128];
	int err = 0, rc;

	snprintf(sim->base, sizeof(sim->base), "%s", cfg->shm_name);
	rc = clear_stale(sim->base, 0);
	if (rc)
		return rc;
	tg_simp_obj_name(obj, sizeof(obj), sim->base, -1);
	dir = map_region(obj, sizeof(*dir), &err);
	if (!dir) {
		sim->base[0] = 0;
		return -err;
	}
	dir->version = TG_SIMP_VERSION;
	dir->nodes = sim->nodes;
	dir->ranks = d->ops->ranks(d);
	dir->pid = (int32_t)getpid();
	for (unsigned n = 0; n < sim->nodes; n++)
		dir->owner[n] = cfg->dist->owner[n];
	for (unsigned r = 0; r < dir->ranks && r < TG_SIMP_DIR_MAX; r++)
		snprintf(dir->host[r], sizeof(dir->host[r]), "%s", d->ops->host(d, r));
	/* everything above is written before the magic */
	atomic_thread_fence(memory_order_release);
	dir->magic = TG_SIMP_DIR_MAGIC;
	munmap(dir, sizeof(*dir));
	return 0;
}

/* Distributed bring-up of remote node n: step until its process says it
 * is up (the cycle it is up in, as a single process would). */
static int wait_remote_up(struct tg_sim *sim, unsigned n)
{
	int rc;

	for (;;) {
		if ((rc = dist_sync(sim)))
			return rc;
		if (sim->dist->ops->peer_up(sim->dist, sim->cycle) > n)
			return 0;
		if ((rc = tg_sim_step(sim, 1)))
			return rc;
	}
}

/* What libtg calls through the simulator's head (tg_open_sim). */
static const struct tg_simp_ops sim_ops = {
	.nodes = tg_sim_nodes,
	.is_local = tg_sim_is_local,
	.ctl = __tg_sim_ctl,
	.mem = tg_sim_mem,
	.step = tg_sim_step,
};

struct tg_sim *tg_sim_create(const struct tg_sim_config *cfg)
{
	struct tg_sim *sim;
	char obj[128], path[4096];
	int err = 0, rc = 0;

	create_err[0] = 0;
	if (!cfg || (rc = check_config(cfg))) {
		snprintf(create_err, sizeof(create_err), "%s",
			 !cfg ? "no configuration" : "bad configuration");
		errno = EINVAL;
		return NULL;
	}
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		return NULL;
	sim->head.magic = TG_SIMP_HEAD_MAGIC;
	sim->head.version = TG_SIMP_HEAD_VERSION;
	sim->head.ops = &sim_ops;
	sim->cfg = *cfg;
	sim->clock_khz = (uint32_t)((1000000000ull + cfg->ps_per_cycle / 2) / cfg->ps_per_cycle);
	sim->cfg.pcap_path = NULL;   /* not kept: the caller owns the strings */
	sim->cfg.vcd_path = NULL;
	/* waveforms show every cycle: nothing is skipped */
	if (cfg->vcd_path)
		sim->cfg.fast_forward = 0;
	sim->cfg.shm_name = NULL;
	sim->cfg.outages = NULL;
	sim->cfg.dist = NULL;
	sim->cfg.bridge_if = NULL;
	sim->nodes = cfg->nodes;
	sim->lookahead = cfg->link_latency + cfg->switch_latency + 1u;
	sim->node = calloc(cfg->nodes, sizeof(*sim->node));
	if (!sim->node) {
		err = ENOMEM;
		goto fail;
	}
	if (cfg->shm_name) {
		if (cfg->dist)
			snprintf(sim->name, sizeof(sim->name), "%s@%u", cfg->shm_name,
				 cfg->dist->link->ops->self(cfg->dist->link));
		else
			snprintf(sim->name, sizeof(sim->name), "%s", cfg->shm_name);
		rc = clear_stale(sim->name, TG_SIM_MAX_NODES);
		if (rc) {
			err = -rc;
			goto fail;
		}
		sim->shared = 1;
	}
	for (unsigned n = 0; n < sim->nodes; n++) {
		struct node *nd = &sim->node[n];

		if (cfg->dist && cfg->dist->owner[n] != cfg->dist->link->ops->self(cfg->dist->link))
			continue;       /* another rank hosts it */
		tg_simp_obj_name(obj, sizeof(obj), sim->name, (int)n);
		nd->mem = map_region(sim->shared ? obj : NULL, cfg->mem_size, &err);
		if (!nd->mem)
			goto fail;
		tg_mm_init(&nd->mm, nd->mem, cfg->mem_size, cfg->mem_lat_min, cfg->mem_lat_max,
			   cfg->mem_stall_pct, tg_rng_seed(cfg->seed, n, 1));
		/* page 0 stays unallocated so that paddr 0 is never a buffer */
		nd->alloc = tg_alloc_create(TG_DRV_GRAN, cfg->mem_size - TG_DRV_GRAN, TG_DRV_GRAN);
		if (!nd->alloc) {
			err = errno;
			goto fail;
		}
		if (cfg->vcd_path && (rc = vcd_name(path, sizeof(path), cfg->vcd_path, n))) {
			err = -rc;
			goto fail;
		}
		nd->nic = tg_vnic_new(n, cfg->vcd_path ? path : NULL, cfg->ps_per_cycle);
		if (!nd->nic) {
			err = errno;
			goto fail;
		}
		nd->active = 1u << TG_SIMP_DRV_SLOT;
	}
	/* distributed: each rank keeps the frames of its own output ports,
	 * keyed; rank 0 merges them into the capture at the end (tg_sim_end) */
	sim->sw = tg_switch_create(sim->nodes, cfg->link_bytes_per_cycle, cfg->link_latency,
				   cfg->link_overhead_bytes, cfg->tx_stall_pct, cfg->ps_per_cycle,
				   tg_rng_seed(cfg->seed, 0, 2), cfg->dist ? NULL : cfg->pcap_path);
	if (!sim->sw) {
		err = errno;
		goto fail;
	}
	if (cfg->dist && cfg->pcap_path) {
		FILE *f = NULL;

		sim->pcap_path = strdup(cfg->pcap_path);
		if (!sim->pcap_path) {
			err = ENOMEM;
			goto fail;
		}
		/* a bad path fails now, as in one process */
		if (cfg->dist->link->ops->self(cfg->dist->link) == 0 &&
		    (f = fopen(cfg->pcap_path, "wb")) == NULL) {
			err = errno;
			goto fail;
		}
		if (f)
			fclose(f);
		sim->sw->pcap = tmpfile();
		if (!sim->sw->pcap) {
			err = errno ? errno : EIO;
			goto fail;
		}
		sim->sw->pcap_keyed = 1;
	}
	for (unsigned n = 0; n < sim->nodes; n++)
		sim->sw->port[n].remote = !is_local(sim, n);
	sim->sw->send_remote = dist_send;
	sim->sw->remote_arg = sim;
	if (cfg->bridge_if) {
		sim->bridge = tg_bridge_open(cfg->bridge_if);
		if (!sim->bridge) {
			err = errno;
			snprintf(sim->err, sizeof(sim->err), "bridge to %s: %s", cfg->bridge_if,
				 strerror(err));
			goto fail;
		}
		sim->sw->uplink_tx = bridge_tx;
		sim->sw->uplink_arg = sim->bridge;
	}
	sim->sw->fwd_latency = cfg->switch_latency;
	sim->sw->mac_fcs = 1;    /* the switch's ports are the NICs' MACs */
	{
		struct tg_sim_faults f = {
			.drop_ppm = cfg->drop_pct * PPM_PER_PCT + cfg->drop_ppm,
			.flip_ppm = cfg->corrupt_pct * PPM_PER_PCT + cfg->flip_ppm,
			.dup_ppm = cfg->dup_ppm,
			.reorder_ppm = cfg->reorder_ppm,
			.reorder_depth = cfg->reorder_depth,
			.reorder_hold_cycles = cfg->reorder_hold_cycles,
		};

		tg_sim_set_fault_rates(sim, &f);
	}
	sim->sw->pcap_ingress = cfg->pcap_ingress != 0;
	tg_sim_set_buffer(sim, TG_SIM_ALL_NODES, cfg->buffer_bytes);
	for (unsigned i = 0; i < cfg->noutages; i++) {
		rc = tg_switch_schedule_down(sim->sw, cfg->outages[i].node, cfg->outages[i].from,
					     cfg->outages[i].to);
		if (rc) {
			err = -rc;
			goto fail;
		}
	}
	sim->ctl_bytes = tg_simp_ctl_bytes(sim->nodes);
	tg_simp_obj_name(obj, sizeof(obj), sim->name, -1);
	/* the control object is created last: its existence means the
	 * memories exist; its ready flag that everything works */
	sim->ctl = map_region(sim->shared ? obj : NULL, sim->ctl_bytes, &err);
	if (!sim->ctl)
		goto fail;
	sim->ctl->version = TG_SIMP_VERSION;
	sim->ctl->nodes = sim->nodes;
	sim->ctl->mem_size = cfg->mem_size;
	sim->ctl->ps_per_cycle = cfg->ps_per_cycle;
	sim->ctl->pid = sim->shared ? (int32_t)getpid() : 0;
	sim->ctl->slot_offset = (sizeof(struct tg_simp_ctl) + 4095u) & ~(uint64_t)4095u;
	sim->ctl->slot_size = sizeof(struct tg_simp_slot);
	sim->ctl->qnode_offset = tg_simp_qnode_offset(sim->nodes);
	sim->ctl->stats_offset = tg_simp_stats_offset(sim->nodes);
	sim->ctl->stats_words = sizeof(struct tg_sim_stats) / sizeof(uint64_t);
	snprintf(sim->ctl->name, sizeof(sim->ctl->name), "%s", sim->name);
	sim->ctl->magic = TG_SIMP_MAGIC;

	if (cfg->dist) {
		struct tg_dist *d = cfg->dist->link;

		if (sim->shared && d->ops->local(d, d->ops->self(d)) == 2 &&
		    (rc = write_dir(sim, cfg))) {
			err = -rc;
			goto fail;
		}
		rc = d->ops->start(d, sim->nodes, cfg->dist->owner, config_digest(cfg), dist_deliver,
				   sim);
		if (rc) {
			snprintf(sim->err, sizeof(sim->err), "%s", d->ops->error(d));
			err = -rc;
			goto fail;
		}
		sim->dist = d;
	}
	/* reset, then bring every NIC up as its driver would */
	if ((rc = tg_sim_step(sim, RESET_CYCLES))) {
		err = -rc;
		goto fail;
	}
	for (unsigned n = 0; n < sim->nodes; n++) {
		struct drv_io io = { sim, n };
		struct tg_drv_mmio mmio = { drv_read, drv_write, &io };

		if (!is_local(sim, n)) {
			if ((rc = wait_remote_up(sim, n))) {
				err = -rc;
				goto fail;
			}
			sim->up = n + 1;
			continue;
		}
		rc = tg_drv_probe(&mmio, n, cfg->mem_size, NULL);
		if (!rc && cfg->spill_log2) {
			/* the spill ring belongs to the NIC, not to a client */
			uint64_t bytes = (uint64_t)TG_SPILL_ENTRY_BYTES << cfg->spill_log2, pa;

			rc = tg_alloc_get(sim->node[n].alloc, bytes, bytes, SPILL_OWNER, &pa);
			if (!rc)
				rc = tg_drv_spill_setup(&mmio, pa, cfg->spill_log2);
		}
		if (!rc && cfg->link_layer)
			rc = tg_drv_link_setup(&mmio, 1, cfg->link_rto);
		if (!rc && cfg->protect) {
			rc = tg_drv_prot_setup(&mmio, &sim->node[n].rt, TG_REGIONS, 1);
		} else {
			/* the NIC's table is empty and off after reset */
			sim->node[n].rt.n = TG_REGIONS;
		}
		if (rc) {
			err = -rc;
			goto fail;
		}
		sim->up = n + 1;
	}
	/* distributed: the peers learn now that the last node is up (they
	 * wait for it before their next cycle) */
	if ((rc = dist_sync(sim))) {
		err = -rc;
		goto fail;
	}
	/* everything above is visible before a client can see ready */
	TG_ATOMIC_STORE_REL(&sim->ctl->ready, 1u);
	return sim;

fail:
	snprintf(create_err, sizeof(create_err), "%s", sim->err[0] ? sim->err : strerror(err ? err : ENOMEM));
	tg_sim_destroy(sim);
	errno = err ? err : ENOMEM;
	return NULL;
}

int tg_sim_end(struct tg_sim *sim)
{
	const struct tg_dist_ops *ops;
	FILE *all[TG_DIST_MAX_RANKS] = { 0 }, *out;
	unsigned ranks;
	int rc;

	if (!sim || !sim->dist || sim->ended)
		return 0;
	sim->ended = 1;
	ops = sim->dist->ops;
	ranks = ops->ranks(sim->dist);
	rc = ops->stop(sim->dist, sim->cycle);
	if (!rc && sim->pcap_path)
		rc = ops->gather(sim->dist, sim->sw->pcap, all);
	if (!rc && sim->pcap_path && ops->self(sim->dist) == 0) {
		out = fopen(sim->pcap_path, "wb");
		rc = out ? tg_switch_pcap_merge(all, ranks, out) : -errno;
		if (out && fclose(out) && !rc)
			rc = -errno;
		if (rc)
			snprintf(sim->err, sizeof(sim->err), "writing %s: %s", sim->pcap_path,
				 strerror(-rc));
	}
	for (unsigned r = 1; r < ranks; r++)
		if (all[r])
			fclose(all[r]);
	if (rc && !sim->err[0])
		snprintf(sim->err, sizeof(sim->err), "%s", ops->error(sim->dist));
	/* no cycle runs after the end */
	if (!sim->fail) {
		sim->fail = rc ? rc : -EPIPE;
		if (!rc)
			snprintf(sim->err, sizeof(sim->err), "the run ended (tg_sim_end)");
	}
	return rc;
}

void tg_sim_destroy(struct tg_sim *sim)
{
	char obj[128];

	if (!sim)
		return;
	/* the peers learn where this rank stopped */
	tg_sim_end(sim);
	if (sim->base[0]) {
		tg_simp_obj_name(obj, sizeof(obj), sim->base, -1);
		shm_unlink(obj);
	}
	free(sim->pcap_path);
	if (sim->ctl) {
		/* clients waiting on us give up */
		TG_ATOMIC_STORE_REL(&sim->ctl->stopping, 1u);
		if (sim->shared) {
			tg_simp_obj_name(obj, sizeof(obj), sim->name, -1);
			shm_unlink(obj);
		}
		munmap(sim->ctl, sim->ctl_bytes);
	}
	tg_switch_destroy(sim->sw);
	tg_bridge_close(sim->bridge);
	for (unsigned n = 0; sim->node && n < sim->nodes; n++) {
		struct node *nd = &sim->node[n];

		tg_vnic_free(nd->nic);
		tg_alloc_destroy(nd->alloc);
		if (nd->mem) {
			munmap(nd->mem, sim->cfg.mem_size);
			if (sim->shared) {
				tg_simp_obj_name(obj, sizeof(obj), sim->name, (int)n);
				shm_unlink(obj);
			}
		}
	}
	free(sim->node);
	free(sim);
}

uint64_t tg_sim_cycles(const struct tg_sim *sim)
{
	return sim ? sim->cycle : 0;
}

unsigned tg_sim_nodes(const struct tg_sim *sim)
{
	return sim ? sim->nodes : 0;
}

int tg_sim_get_bridge_stats(const struct tg_sim *sim, struct tg_sim_bridge_stats *st)
{
	if (!sim || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	tg_bridge_counts(sim->bridge, &st->sent, &st->received, &st->lost);
	st->ignored = sim->bridge_ignored;
	return 0;
}

int tg_sim_is_local(const struct tg_sim *sim, unsigned node)
{
	return sim && node < sim->nodes && is_local(sim, node);
}

const char *tg_sim_error(const struct tg_sim *sim)
{
	return sim ? sim->err : create_err;
}

uint8_t *tg_sim_mem(struct tg_sim *sim, unsigned node)
{
	return sim && node < sim->nodes ? sim->node[node].mem : NULL;
}

uint64_t tg_sim_mem_size(const struct tg_sim *sim)
{
	return sim ? sim->cfg.mem_size : 0;
}

int tg_sim_set_faults(struct tg_sim *sim, unsigned drop_pct, unsigned corrupt_pct)
{
	struct tg_sim_faults f;

	if (!sim || drop_pct > 100 || corrupt_pct > 100)
		return -EINVAL;
	tg_sim_get_fault_rates(sim, &f);
	f.drop_ppm = drop_pct * PPM_PER_PCT;
	f.flip_ppm = corrupt_pct * PPM_PER_PCT;
	f.dup_ppm = 0;
	f.reorder_ppm = 0;
	return tg_sim_set_fault_rates(sim, &f);
}

int tg_sim_set_fault_rates(struct tg_sim *sim, const struct tg_sim_faults *f)
{
	if (!sim || !f || f->drop_ppm > TG_SW_PPM || f->flip_ppm > TG_SW_PPM ||
	    f->dup_ppm > TG_SW_PPM || f->reorder_ppm > TG_SW_PPM || !f->reorder_depth ||
	    f->reorder_depth > 1000 || !f->reorder_hold_cycles ||
	    f->reorder_hold_cycles > 1000000)
		return -EINVAL;
	sim->sw->drop_ppm = f->drop_ppm;
	sim->sw->flip_ppm = f->flip_ppm;
	sim->sw->dup_ppm = f->dup_ppm;
	sim->sw->reorder_ppm = f->reorder_ppm;
	sim->sw->reorder_depth = f->reorder_depth;
	sim->sw->reorder_hold = f->reorder_hold_cycles;
	return 0;
}

int tg_sim_get_fault_rates(const struct tg_sim *sim, struct tg_sim_faults *f)
{
	if (!sim || !f)
		return -EINVAL;
	*f = (struct tg_sim_faults){
		.drop_ppm = sim->sw->drop_ppm,
		.flip_ppm = sim->sw->flip_ppm,
		.dup_ppm = sim->sw->dup_ppm,
		.reorder_ppm = sim->sw->reorder_ppm,
		.reorder_depth = sim->sw->reorder_depth,
		.reorder_hold_cycles = sim->sw->reorder_hold,
	};
	return 0;
}

int tg_sim_set_link(struct tg_sim *sim, unsigned node, unsigned latency,
		    unsigned bytes_per_cycle)
{
	if (!sim || node >= sim->nodes)
		return -EINVAL;
	/* distributed: a cable's latency is part of the lookahead */
	if (sim->dist && latency != sim->sw->port[node].latency)
		return -EOPNOTSUPP;
	return tg_switch_set_link(sim->sw, node, latency, bytes_per_cycle);
}

int tg_sim_set_buffer(struct tg_sim *sim, unsigned node, uint32_t bytes)
{
	if (!sim || (node >= sim->nodes && node != TG_SIM_ALL_NODES))
		return -EINVAL;
	for (unsigned n = 0; n < sim->nodes; n++)
		if (node == TG_SIM_ALL_NODES || node == n)
			sim->sw->port[n].buf_bytes = bytes;
	return 0;
}

int tg_sim_link_down(struct tg_sim *sim, unsigned node, int down)
{
	if (!sim || node >= sim->nodes)
		return -EINVAL;
	if (sim->dist)
		return -EOPNOTSUPP;
	tg_switch_set_down(sim->sw, node, down);
	return 0;
}

int tg_sim_schedule_outage(struct tg_sim *sim, unsigned node, uint64_t from, uint64_t to)
{
	if (!sim || node >= sim->nodes)
		return -EINVAL;
	return tg_switch_schedule_down(sim->sw, node, from, to);
}

int tg_sim_inject(struct tg_sim *sim, unsigned node, const void *frame, size_t len)
{
	if (!sim || node >= sim->nodes || len > TG_SW_MAX_FRAME)
		return -EINVAL;
	return tg_switch_put_frame(sim->sw, node, sim->cycle, frame, (unsigned)len);
}

unsigned tg_sim_clients(const struct tg_sim *sim)
{
	return sim ? sim->clients : 0;
}

void *__tg_sim_ctl(struct tg_sim *sim)
{
	return sim ? sim->ctl : NULL;
}

static void add_stats(struct tg_sim_stats *a, const struct tg_sim_stats *b)
{
	a->tx_frames += b->tx_frames;
	a->tx_bytes += b->tx_bytes;
	a->rx_frames += b->rx_frames;
	a->drop_unknown += b->drop_unknown;
	a->drop_malformed += b->drop_malformed;
	a->drop_injected += b->drop_injected;
	a->corrupt_injected += b->corrupt_injected;
	a->mem_reads += b->mem_reads;
	a->mem_writes += b->mem_writes;
	a->mem_oob += b->mem_oob;
	a->proto_errors += b->proto_errors;
	a->host_rejects += b->host_rejects;
	a->host_reads += b->host_reads;
	a->host_writes += b->host_writes;
	a->dup_injected += b->dup_injected;
	a->reorder_injected += b->reorder_injected;
	a->drop_congestion += b->drop_congestion;
	a->drop_link_down += b->drop_link_down;
	a->rx_injected += b->rx_injected;
	a->ff_cycles += b->ff_cycles;
}

int tg_sim_get_qstats(const struct tg_sim *sim, unsigned node, struct tg_sim_qstats *st)
{
	if (!sim || !st || (node >= sim->nodes && node != TG_SIM_ALL_NODES) ||
	    (node != TG_SIM_ALL_NODES && !is_local(sim, node)))
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	for (unsigned n = 0; n < sim->nodes; n++) {
		const struct tg_drv_qtable *t = &sim->node[n].qt;

		if (node != TG_SIM_ALL_NODES && node != n)
			continue;
		st->overflows += t->overflows;
		st->grows += t->grows;
		st->full_marks += t->full_marks;
		st->reopens += t->reopens;
		st->notifies += t->notifies;
	}
	return 0;
}

/* The counters of node n. */
static void node_stats(const struct tg_sim *sim, unsigned n, struct tg_sim_stats *s)
{
	const struct node *nd = &sim->node[n];
	const struct tg_sw_port *pt = &sim->sw->port[n];

	*s = nd->st;
	s->tx_frames = pt->tx_frames;
	s->tx_bytes = pt->tx_bytes;
	s->rx_frames = pt->rx_frames;
	s->drop_unknown = pt->drop_unknown;
	s->drop_malformed = pt->drop_malformed;
	s->drop_injected = pt->drop_injected;
	s->corrupt_injected = pt->corrupt_injected;
	s->dup_injected = pt->dup_injected;
	s->reorder_injected = pt->reorder_injected;
	s->drop_congestion = pt->drop_congestion;
	s->drop_link_down = pt->drop_link_down;
	s->rx_injected = pt->rx_injected;
	s->mem_reads = nd->mm.reads;
	s->mem_writes = nd->mm.writes;
	s->mem_oob = nd->mm.oob;
}

int tg_sim_get_stats(const struct tg_sim *sim, unsigned node, struct tg_sim_stats *st)
{
	if (!sim || !st || (node >= sim->nodes && node != TG_SIM_ALL_NODES) ||
	    (node != TG_SIM_ALL_NODES && !is_local(sim, node)))
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	for (unsigned n = 0; n < sim->nodes; n++) {
		struct tg_sim_stats s;

		if ((node != TG_SIM_ALL_NODES && node != n) || !is_local(sim, n))
			continue;
		node_stats(sim, n, &s);
		add_stats(st, &s);
	}
	return 0;
}
