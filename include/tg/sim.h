/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* C API of the cycle-based cluster simulator: N Verilated NICs, host memories and an Ethernet switch. */
#ifndef TG_SIM_H
#define TG_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "tg/tg_board.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TG_SIM_MAX_NODES   256u

/* Node `node`'s link is down in cycles [from, to) (counted from creation,
 * as tg_sim_cycles): every frame it sends and every frame to it is lost. */
struct tg_sim_outage {
	unsigned node;
	uint64_t from, to;
};

/* The ranks of an MPI job joined for a split cluster: made by
 * tg_dist_mpi_open() (sim/tg_dist.h, in libtgsim_mpi.a, which links
 * Open MPI; libtgsim.a itself does not). */
struct tg_dist;

/* One rank of a cluster split over the ranks of an MPI job
 * (docs/distributed.md).  Every rank gets the same configuration. */
struct tg_sim_dist {
	const uint8_t *owner;           /* owner[node]: the rank hosting the node
					 * (one entry per node; copied) */
	struct tg_dist *link;           /* the ranks' connection; stays the caller's,
					 * one simulator at a time */
};

/* Cluster configuration.  Fill with tg_sim_config_init(), then change
 * what you need. */
struct tg_sim_config {
	unsigned nodes;                 /* 1..256, default 2 */
	uint64_t mem_size;              /* bytes of host memory per node, default 64 MiB;
					 * a multiple of 4096, below 4 GiB */
	uint64_t seed;                  /* seeds every random choice (default 1) */
	unsigned ps_per_cycle;          /* clock period in ps (default TG_BOARD_CORE_PS:
					 * the board's NIC core, 24000 = 41.67 MHz) */
	/* host memory model */
	unsigned mem_lat_min;           /* response latency in cycles, >= 1 (default 4) */
	unsigned mem_lat_max;           /* >= mem_lat_min (default 4) */
	unsigned mem_stall_pct;         /* % of cycles m_mem_req_ready is low (default 0) */
	/* network */
	unsigned link_latency;          /* cycles on each cable, NIC<->switch (default
					 * TG_BOARD_CABLE_CYCLES: 80 ns rounded to
					 * 3 cycles, 72 ns) */
	unsigned switch_latency;        /* cycles from a frame's last byte in the switch to
					 * its forwarding on the output port, 0..1000000
					 * (default 0: store-and-forward only) */
	unsigned link_bytes_per_cycle;  /* 1..64 (default TG_BOARD_LINK_BYTES: Gigabit
					 * Ethernet, 3 bytes a cycle at 41.67 MHz) */
	unsigned link_overhead_bytes;   /* preamble + SFD + IFG per frame (default 20) */
	unsigned tx_stall_pct;          /* % of cycles the switch holds TX tready low (default 0) */
	unsigned drop_pct;              /* % of frames the switch loses (default 0) */
	unsigned corrupt_pct;           /* % of frames delivered with one bit flipped (default 0) */
	/* finer faults, in frames per million; each adds to its _pct field
	 * above (drop_pct * 10000 + drop_ppm), at most 1000000 in all */
	uint32_t drop_ppm;              /* lost in the switch (default 0) */
	uint32_t flip_ppm;              /* delivered with one random bit flipped (default 0) */
	uint32_t dup_ppm;               /* delivered twice (default 0) */
	uint32_t reorder_ppm;           /* held back at their output port (default 0) */
	unsigned reorder_depth;         /* a held frame is queued behind this many later
					 * frames of the same output, 1..1000 (default 1) */
	unsigned reorder_hold_cycles;   /* ... or after this many cycles if fewer come,
					 * 1..1000000 (default 2000) */
	uint32_t buffer_bytes;          /* output buffer per switch port; a frame that does
					 * not fit is dropped (drop_congestion); 0 (default):
					 * unlimited */
	const struct tg_sim_outage *outages;  /* scheduled link outages (copied), or NULL */
	unsigned noutages;
	int pcap_ingress;               /* 1: the pcap tap sits where frames enter the
					 * switch (as the NICs sent them, before any fault);
					 * 0 (default): at the output ports, after the faults */
	/* NIC */
	unsigned spill_log2;            /* REQ spill ring of 2^N entries per node, 0..16
					 * (default 10); 0: none, REQ stores that find
					 * every sender slot taken stall the host port */
	int link_layer;                 /* 1: every NIC runs its link layer (sequence
					 * numbers, acknowledgements, retransmission;
					 * docs/design.md) from bring-up on; 0 (default):
					 * off, for a network that loses nothing */
	uint32_t link_rto;              /* with link_layer: retransmission timeout in
					 * cycles; 0 (default): the NIC's reset value */
	int protect;                    /* 1: every NIC checks each remote access
					 * against its region table (keys, rights,
					 * bounds; docs/security.md); 0 (default): any
					 * node may reach all of mem_size */
	/* simulation */
	int fast_forward;               /* 1 (default): while every NIC is idle and
					 * nothing is on the wire, in the memory
					 * models or in a client's ring, one step
					 * stands for many cycles, with the same
					 * results as running each (docs/simulator.md);
					 * 0: every cycle is evaluated */
	/* outputs */
	const char *pcap_path;          /* every frame on the wire, or NULL */
	const char *vcd_path;           /* waveforms, one file per node, or NULL;
					 * "%u" in the name is replaced by the node
					 * number, else ".N" goes before the extension */
	/* sharing: NULL = in-process only; else the name of the shared-memory
	 * objects clients attach to ("/tg-sim.NAME" and "/tg-sim.NAME.N") */
	const char *shm_name;
	/* distributed: NULL (default) = every node in this process; else
	 * this rank hosts the nodes the map gives it.  A split cluster gives
	 * what one process gives when every rank makes the same calls in the
	 * same cycles: settings changed while it runs included */
	const struct tg_sim_dist *dist;
	/* bridge: NULL (default), or a Linux interface (e.g. one end of a
	 * veth pair) the switch copies every frame it forwards to this
	 * rank's nodes, and their frames to unknown MACs, to; Telegraphos
	 * frames received on it for a node of this rank enter the switch
	 * (docs/distributed.md).  Needs CAP_NET_RAW; a bridged run is not
	 * deterministic. */
	const char *bridge_if;
};

/* Switch and model counters of one node (or the whole cluster). */
struct tg_sim_stats {
	uint64_t tx_frames;             /* frames the NIC sent */
	uint64_t tx_bytes;              /* their bytes, FCS included */
	uint64_t rx_frames;             /* frames delivered to the NIC */
	uint64_t drop_unknown;          /* sent to a MAC that is no node of this cluster */
	uint64_t drop_malformed;        /* shorter than an Ethernet header or too long */
	uint64_t drop_injected;         /* frames it sent lost on purpose (drop rate) */
	uint64_t corrupt_injected;      /* frames it sent with a bit flipped on purpose */
	uint64_t mem_reads;             /* memory-master reads served */
	uint64_t mem_writes;            /* memory-master writes served */
	uint64_t mem_oob;               /* memory-master requests beyond the memory (ignored) */
	uint64_t proto_errors;          /* handshake rule broken by the NIC (see docs) */
	uint64_t host_rejects;          /* client requests refused before the host port */
	uint64_t host_reads;            /* reads issued on the host port */
	uint64_t host_writes;           /* write beats issued on the host port */
	uint64_t dup_injected;          /* frames it sent delivered twice on purpose */
	uint64_t reorder_injected;      /* frames it sent held back on purpose */
	uint64_t drop_congestion;       /* frames to it lost: its output buffer was full */
	uint64_t drop_link_down;        /* frames from or to it lost while its link was down */
	uint64_t rx_injected;           /* frames to it put on its cable by tg_sim_inject */
	uint64_t ff_cycles;             /* cycles since creation its NIC was idle and
					 * made up without being evaluated (fast-forward) */
};

struct tg_sim;

/* Default configuration. */
void tg_sim_config_init(struct tg_sim_config *cfg);

/* Build the cluster, reset it, and (acting as the driver) check every
 * NIC's CSR ID and program its MEM_SIZE through the host port.
 * Returns the simulator, owned by the caller (free with tg_sim_destroy),
 * or NULL with errno set: EINVAL bad configuration, ENOMEM, EEXIST a
 * simulator of that name runs, EPROTO a NIC with a bad ID, ETIMEDOUT a NIC
 * that did not answer its driver, or the error of a failed shm call. */
struct tg_sim *tg_sim_create(const struct tg_sim_config *cfg);

/* Stop, flush the pcap/VCD files, unlink any shared-memory objects and
 * free.  Accepts NULL.  Clients still attached see the simulator stop. */
void tg_sim_destroy(struct tg_sim *sim);

/* Advance ncycles clock cycles.  Client rings are served every cycle.
 * Returns 0; in a distributed run -ETIMEDOUT (a peer went silent),
 * -EPIPE (a peer stopped), -EINTR (the connection's stop flag was set
 * while waiting), -EBADMSG, -EPROTO or -EIO (a bad message, an MPI
 * error), with the reason in tg_sim_error(); the error is sticky. */
int tg_sim_step(struct tg_sim *sim, uint64_t ncycles);

/* Distributed: end this rank's run where it is (every rank calls it):
 * tell the peers, take what they still send, and with a pcap_path merge
 * every rank's frames into that file on rank 0, in the order one process
 * writes them.  tg_sim_destroy calls it if the program did not.  0, or
 * -errno with the reason in tg_sim_error() (then the MPI job cannot end
 * in step: abort it).  0 at once in one process. */
int tg_sim_end(struct tg_sim *sim);

/* Cycles simulated since creation (reset included). */
uint64_t tg_sim_cycles(const struct tg_sim *sim);

/* Number of nodes. */
unsigned tg_sim_nodes(const struct tg_sim *sim);

/* What the bridge to a Linux interface carried. */
struct tg_sim_bridge_stats {
	uint64_t sent;          /* frames copied to the interface */
	uint64_t received;      /* Telegraphos frames received on it */
	uint64_t ignored;       /* received, but for no node of this process */
	uint64_t lost;          /* the interface refused them */
};

/* Copy the bridge counters (all zero without a bridge).  0 or -EINVAL. */
int tg_sim_get_bridge_stats(const struct tg_sim *sim, struct tg_sim_bridge_stats *st);

/* Whether `node` lives in this process (always, unless cfg.dist is set). */
int tg_sim_is_local(const struct tg_sim *sim, unsigned node);

/* Why a distributed run stopped (a peer silent or gone, a bad message),
 * or "" if it did not; with sim NULL, why the last tg_sim_create failed.
 * The string belongs to the simulator. */
const char *tg_sim_error(const struct tg_sim *sim);

/* Host memory of a node (owned by the simulator, valid until destroy),
 * NULL for a bad node.  Words the NIC writes become visible with release
 * ordering; read polled words with TG_DEV_LOAD_ACQ64. */
uint8_t *tg_sim_mem(struct tg_sim *sim, unsigned node);

/* Bytes of host memory per node. */
uint64_t tg_sim_mem_size(const struct tg_sim *sim);

/* Copy the counters of `node`, or of all nodes summed if node ==
 * TG_SIM_ALL_NODES.  Returns 0 or -EINVAL. */
#define TG_SIM_ALL_NODES   (~0u)
int tg_sim_get_stats(const struct tg_sim *sim, unsigned node, struct tg_sim_stats *st);

/* What the driver's queue code did on a node (or all nodes summed). */
struct tg_sim_qstats {
	uint64_t overflows;     /* overflow interrupts handled */
	uint64_t grows;         /* buffers added to a queue */
	uint64_t full_marks;    /* overflows during a dequeue: QF_FULL marked */
	uint64_t reopens;       /* queues reopened without a new buffer */
	uint64_t notifies;      /* notification interrupts handled */
};

/* Copy the queue counters of `node` or TG_SIM_ALL_NODES.  0 or -EINVAL. */
int tg_sim_get_qstats(const struct tg_sim *sim, unsigned node, struct tg_sim_qstats *st);

/* Change the switch's loss and corruption rates (percent of frames, 0..100)
 * from now on; duplication and reordering are switched off.  Returns 0 or
 * -EINVAL. */
int tg_sim_set_faults(struct tg_sim *sim, unsigned drop_pct, unsigned corrupt_pct);

/* Fault rates of the switch, in frames per million (0..1000000). */
struct tg_sim_faults {
	uint32_t drop_ppm, flip_ppm, dup_ppm, reorder_ppm;
	unsigned reorder_depth;         /* 1..1000 */
	unsigned reorder_hold_cycles;   /* 1..1000000 */
};

/* Set every fault rate from now on (the next frame to finish crossing a
 * cable sees them).  Returns 0 or -EINVAL (nothing changed). */
int tg_sim_set_fault_rates(struct tg_sim *sim, const struct tg_sim_faults *f);

/* Copy the current fault rates.  Returns 0 or -EINVAL. */
int tg_sim_get_fault_rates(const struct tg_sim *sim, struct tg_sim_faults *f);

/* Latency (0..1000000 cycles) and bandwidth (1..64 bytes per cycle) of
 * node `node`'s cable, both directions, from now on; frames already on it
 * keep their timing.  Returns 0 or -EINVAL. */
int tg_sim_set_link(struct tg_sim *sim, unsigned node, unsigned latency,
		    unsigned bytes_per_cycle);

/* Output buffer of node `node`'s switch port (or every port with
 * TG_SIM_ALL_NODES) in bytes, 0 = unlimited.  Frames already queued stay.
 * Returns 0 or -EINVAL. */
int tg_sim_set_buffer(struct tg_sim *sim, unsigned node, uint32_t bytes);

/* Take node `node`'s link down (down != 0) or bring it back up.  While it
 * is down every frame it sends, and every frame to it not yet started on
 * its cable, is lost (drop_link_down).  Returns 0 or -EINVAL. */
int tg_sim_link_down(struct tg_sim *sim, unsigned node, int down);

/* Schedule an outage of node `node`'s link in cycles [from, to).
 * Returns 0, -EINVAL or -ENOMEM. */
int tg_sim_schedule_outage(struct tg_sim *sim, unsigned node, uint64_t from, uint64_t to);

/* Put a raw frame (as on the wire: Ethernet header to FCS, 1..2048 bytes,
 * copied) on the switch's output to node `node`, behind the frames queued
 * there: the NIC receives it, good or bad, as it would any frame.  No fault
 * or buffer limit applies; rx_frames counts it once delivered.  For tests
 * of bad input.  Returns 0, -EINVAL or -ENOMEM. */
int tg_sim_inject(struct tg_sim *sim, unsigned node, const void *frame, size_t len);

/* Free the contexts of clients whose process has gone (checked with
 * kill(pid, 0)).  Returns how many were freed.  tg-sim calls this a few
 * times per second. */
int tg_sim_reap(struct tg_sim *sim);

/* Clients currently attached to the cluster. */
unsigned tg_sim_clients(const struct tg_sim *sim);

/* Internal, not for applications: the control region libtg attaches to
 * in-process. */
void *__tg_sim_ctl(struct tg_sim *sim);

#ifdef __cplusplus
}
#endif

#endif /* TG_SIM_H */
