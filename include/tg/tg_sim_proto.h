/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Layout of the control region shared by the simulator and its clients (internal, not for applications). */
#ifndef TG_SIM_PROTO_H
#define TG_SIM_PROTO_H

/*
 * The control region holds a header and, per node, one slot per NIC
 * context plus one slot the simulator uses itself (the driver slot).  A
 * slot carries two single-producer single-consumer rings:
 *
 *   req  (client -> simulator): MMIO beats and driver calls;
 *   resp (simulator -> client): read data and errors.
 *
 * Counters are free-running 64-bit values; an entry lives at
 * ring[counter & (size - 1)].  The producer fills entries with plain
 * stores, then release-stores its tail; the consumer acquire-loads the
 * tail, reads the entries, then release-stores its head.
 *
 * In tg-sim the region is the POSIX shared-memory object "/tg-sim.NAME";
 * node n's host memory is "/tg-sim.NAME.n".  In-process it is ordinary
 * memory.  Everything here is fixed-width and free of pointers.
 */

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TG_SIMP_MAGIC          0x544753494d43544cULL /* "TGSIMCTL" */
#define TG_SIMP_VERSION        3u
#define TG_SIMP_CTX_SLOTS      16u   /* client slots per node = NIC contexts */
#define TG_SIMP_SLOTS          17u   /* + the simulator's own driver slot */
#define TG_SIMP_DRV_SLOT       16u
#define TG_SIMP_REQ_ENTRIES    256u  /* power of two */
#define TG_SIMP_RESP_ENTRIES   64u   /* power of two */
#define TG_SIMP_NAME_MAX       48u
#define TG_SIMP_DEFAULT_NAME   "tg"

/* Request ops */
#define TG_SIMP_OP_WRITE       1u  /* one host-port write beat; last ends the burst */
#define TG_SIMP_OP_READ        2u  /* one host-port read; answered on resp */
#define TG_SIMP_OP_ALLOC       3u  /* addr = length, data = alignment; resp data = paddr */
#define TG_SIMP_OP_FREE        4u  /* addr = paddr; resp only on error */
#define TG_SIMP_OP_QCREATE     5u  /* addr = log2 buffer bytes | log2 entry bytes << 8;
				    * resp data = first buffer paddr | table index << 32 */
#define TG_SIMP_OP_QDESTROY    6u  /* addr = queue paddr; answered */
#define TG_SIMP_OP_QGROW       7u  /* addr = queue paddr; answered once done */
#define TG_SIMP_OP_QARM        8u  /* addr = queue paddr; resp only on error */
#define TG_SIMP_OP_QFREEBUF    9u  /* addr = queue paddr, data = unlinked buffer; resp only on error */
#define TG_SIMP_OP_REXPORT    10u  /* addr = paddr | rights << 32, data = length; resp data = key */
#define TG_SIMP_OP_RREVOKE    11u  /* addr = key; answered once in force */

/* Client flags (slot.flags) */
#define TG_SIMP_F_DRIVER       1u  /* may use the CSR page */

/* Slot states */
#define TG_SIMP_S_FREE         0u
#define TG_SIMP_S_CLAIMED      1u  /* client owns it, filling in pid/flags */
#define TG_SIMP_S_ATTACH       2u  /* client asks the simulator to open it */
#define TG_SIMP_S_ACTIVE       3u  /* simulator serves it */
#define TG_SIMP_S_CLOSING      4u  /* client left; simulator drains and frees */

struct tg_simp_req {
	uint64_t addr;   /* host-port byte address, or op argument */
	uint64_t data;   /* write data, or op argument */
	uint32_t seq;    /* client's sequence number, echoed in responses */
	uint8_t  op;     /* TG_SIMP_OP_* */
	uint8_t  strb;   /* write byte enables */
	uint8_t  last;   /* 1 on the final beat of a burst (and on reads) */
	uint8_t  rsvd;
	uint64_t rsvd2;
};

struct tg_simp_resp {
	uint64_t data;
	uint32_t seq;    /* seq of the request this answers (first beat of a rejected burst) */
	int32_t  err;    /* 0 or -errno */
};

struct tg_simp_slot {
	_Atomic uint32_t state;      /* TG_SIMP_S_*; client and simulator */
	_Atomic int32_t  pid;        /* client's pid; 0 for in-process clients */
	uint32_t flags;              /* TG_SIMP_F_*, set while CLAIMED */
	uint32_t rsvd;
	/* a client waiting for room in its request ring sleeps on space_wake
	 * (a futex) with space_sleep set; the simulator, having consumed
	 * entries, steps space_wake and wakes it when space_sleep is set */
	_Atomic uint32_t space_wake;
	_Atomic uint32_t space_sleep;
	uint8_t  pad0[40];
	_Atomic uint64_t req_tail;   /* written by the client */
	uint8_t  pad1[56];
	_Atomic uint64_t req_head;   /* written by the simulator */
	uint8_t  pad2[56];
	_Atomic uint64_t resp_tail;  /* written by the simulator */
	uint8_t  pad3[56];
	_Atomic uint64_t resp_head;  /* written by the client */
	uint8_t  pad4[56];
	struct tg_simp_req  req[TG_SIMP_REQ_ENTRIES];
	struct tg_simp_resp resp[TG_SIMP_RESP_ENTRIES];
};

struct tg_simp_ctl {
	uint64_t magic;              /* TG_SIMP_MAGIC, written last before ready */
	uint32_t version;            /* TG_SIMP_VERSION */
	uint32_t nodes;
	uint64_t mem_size;           /* bytes of host memory per node */
	uint32_t ps_per_cycle;       /* clock period in picoseconds */
	int32_t  pid;                /* simulator process (0 in-process) */
	uint64_t slot_offset;        /* byte offset of slot[0] */
	uint64_t slot_size;          /* sizeof(struct tg_simp_slot) */
	char     name[TG_SIMP_NAME_MAX];
	_Atomic uint32_t ready;      /* 1 once everything above is valid */
	_Atomic uint32_t stopping;   /* 1 once the simulator is shutting down */
	_Atomic uint64_t cycles;     /* simulated cycles, stored every simulated cycle */
	uint64_t qnode_offset;       /* byte offset of qnode[0] (one per node) */
	uint64_t stats_offset;       /* byte offset of stats[0] (one per node), 0 if none */
	uint32_t stats_words;        /* words of struct tg_sim_stats in stats[].v */
	uint32_t rsvd;
	uint8_t  pad[40];
};

/* Per node: notification counters of its queue-table entries.  The
 * simulator (as the driver) increments wake[i] with release ordering and
 * wakes futex waiters on it when queue i's notification fires. */
struct tg_simp_qnode {
	_Atomic uint32_t wake[16];
	uint32_t rsvd[16];
};

/* Per node: a copy of its struct tg_sim_stats (include/tg/sim.h), word by
 * word, for tools such as tgctl.  The simulator refreshes it every few
 * hundred cycles under a sequence lock: gen is odd while it writes; a
 * reader copies v between two equal even reads of gen. */
#define TG_SIMP_STATS_WORDS    30u
struct tg_simp_stats {
	_Atomic uint64_t gen;
	_Atomic uint64_t cycle;      /* cycle of the copy */
	_Atomic uint64_t v[TG_SIMP_STATS_WORDS];
};

/*
 * A cluster split over the ranks of an MPI job (docs/distributed.md):
 * rank R serves its nodes under the name "NAME@R" (its control region
 * "/tg-sim.NAME@R", its nodes' memories "/tg-sim.NAME@R.N"), and the
 * lowest rank on each machine writes this directory as "/tg-sim.NAME",
 * so that "sim:NAME:N" finds the rank of node N, or names its machine.
 */
#define TG_SIMP_DIR_MAGIC      0x544753494d444952ULL /* "TGSIMDIR" */
#define TG_SIMP_DIR_MAX        256u  /* ranks and nodes */
#define TG_SIMP_HOST_MAX       64u

struct tg_simp_dir {
	uint64_t magic;              /* TG_SIMP_DIR_MAGIC, written last */
	uint32_t version;            /* TG_SIMP_VERSION */
	uint32_t nodes;
	uint32_t ranks;
	int32_t  pid;                /* the rank that wrote it */
	uint8_t  owner[TG_SIMP_DIR_MAX];              /* owner[node]: its rank */
	char     host[TG_SIMP_DIR_MAX][TG_SIMP_HOST_MAX]; /* host[rank]: its machine */
};

/* Slot of (node, index) inside a control region. */
static inline struct tg_simp_slot *tg_simp_slot(struct tg_simp_ctl *ctl,
						unsigned node, unsigned idx)
{
	return (struct tg_simp_slot *)((uint8_t *)ctl + ctl->slot_offset +
				       ((uint64_t)node * TG_SIMP_SLOTS + idx) *
				       ctl->slot_size);
}

/* Queue notification counters of `node`. */
static inline struct tg_simp_qnode *tg_simp_qnode(struct tg_simp_ctl *ctl, unsigned node)
{
	return (struct tg_simp_qnode *)((uint8_t *)ctl + ctl->qnode_offset) + node;
}

/* Byte offset of the qnode array for `nodes` nodes (after the slots). */
static inline uint64_t tg_simp_qnode_offset(unsigned nodes)
{
	uint64_t off = (sizeof(struct tg_simp_ctl) + 4095u) & ~(uint64_t)4095u;
	return off + (uint64_t)nodes * TG_SIMP_SLOTS * sizeof(struct tg_simp_slot);
}

/* Byte offset of the stats array for `nodes` nodes (after the qnodes). */
static inline uint64_t tg_simp_stats_offset(unsigned nodes)
{
	return tg_simp_qnode_offset(nodes) + (uint64_t)nodes * sizeof(struct tg_simp_qnode);
}

/* Bytes of a control region for `nodes` nodes. */
static inline uint64_t tg_simp_ctl_bytes(unsigned nodes)
{
	return tg_simp_stats_offset(nodes) + (uint64_t)nodes * sizeof(struct tg_simp_stats);
}

/* An in-process simulator, as libtg sees it (tg_open_sim): struct tg_sim
 * starts with this head, so libtg reaches the simulator through these
 * calls and needs none of its symbols to link. */
struct tg_sim;
struct tg_simp_ops {
	unsigned (*nodes)(const struct tg_sim *sim);
	int (*is_local)(const struct tg_sim *sim, unsigned node);
	void *(*ctl)(struct tg_sim *sim);              /* the control region */
	uint8_t *(*mem)(struct tg_sim *sim, unsigned node);
	int (*step)(struct tg_sim *sim, uint64_t ncycles);
};

#define TG_SIMP_HEAD_MAGIC     0x54475348u  /* "TGSH" */
#define TG_SIMP_HEAD_VERSION   1u           /* bumped when tg_simp_ops changes */

struct tg_simp_head {
	uint32_t magic;              /* TG_SIMP_HEAD_MAGIC */
	uint32_t version;            /* TG_SIMP_HEAD_VERSION */
	const struct tg_simp_ops *ops;
};

/* shm object names: control "/tg-sim.NAME" (node < 0), node memory
 * "/tg-sim.NAME.N". */
#define TG_SIMP_SHM_PREFIX     "/tg-sim."

static inline void tg_simp_obj_name(char *buf, size_t n, const char *name, int node)
{
	if (node < 0)
		snprintf(buf, n, TG_SIMP_SHM_PREFIX "%s", name);
	else
		snprintf(buf, n, TG_SIMP_SHM_PREFIX "%s.%d", name, node);
}

/* Parse a simulated device name, "sim:NODE" or "sim:NAME:NODE" (NAME
 * defaults to $TG_SIM_NAME, else TG_SIMP_DEFAULT_NAME; no '/' in it, NODE
 * decimal, at most 0xffff) into name (name_sz bytes) and *node.  Returns 0
 * or -EINVAL.  (libtg's tg_open and tgctl name nodes this way.) */
static inline int tg_simp_parse_dev(const char *s, char *name, size_t name_sz, unsigned *node)
{
	const char *p, *colon;
	char *end;
	unsigned long v;
	size_t n;

	if (!s || strncmp(s, "sim:", 4))
		return -EINVAL;
	p = s + 4;
	colon = strrchr(p, ':');
	if (colon) {
		n = (size_t)(colon - p);
		if (!n || n >= name_sz || memchr(p, '/', n))
			return -EINVAL;
		memcpy(name, p, n);
		name[n] = 0;
		p = colon + 1;
	} else {
		const char *env = getenv("TG_SIM_NAME");

		if (!env || !*env)
			env = TG_SIMP_DEFAULT_NAME;
		if (strlen(env) >= name_sz || strchr(env, '/') || strchr(env, ':'))
			return -EINVAL;
		strcpy(name, env);
	}
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(p, &end, 10);
	if (errno || *end || v > 0xffff)
		return -EINVAL;
	*node = (unsigned)v;
	return 0;
}

#endif /* TG_SIM_PROTO_H */
