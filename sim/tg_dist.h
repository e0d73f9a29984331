/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Distributed simulation: the ranks of an MPI job joined for a split cluster, and their conservative time synchronization. */
#ifndef TG_DIST_H
#define TG_DIST_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tg/sim.h"

#define TG_DIST_MAX_RANKS  TG_SIM_MAX_NODES
#define TG_DIST_HOST_MAX   64u

/* A frame that crosses from a port of one rank to a port of another. */
struct tg_dist_frame {
	unsigned src, dst;      /* source and destination node */
	uint64_t due;           /* cycle it reaches its output port */
	uint64_t seq;           /* its number among the frames of src */
	int reorder;            /* to be held back at its output */
	unsigned len;
	const uint8_t *data;    /* the frame as the switch carries it, FCS included */
};

/* Called for each frame a peer sends to one of this rank's ports.  0 or -errno. */
typedef int (*tg_dist_deliver_fn)(void *arg, const struct tg_dist_frame *f);

struct tg_dist;

/*
 * What the simulator (tg_sim.c) calls.  libtgsim.a holds no MPI code: the
 * MPI implementation (tg_dist_mpi_open, libtgsim_mpi.a) fills this table,
 * and only programs that split a cluster link it.  Every int function
 * returns 0 or -errno, the reason in error().
 */
struct tg_dist_ops {
	unsigned (*ranks)(const struct tg_dist *d);
	unsigned (*self)(const struct tg_dist *d);
	/* the machine rank r runs on (its MPI processor name) */
	const char *(*host)(const struct tg_dist *d, unsigned r);
	/* 1 if rank r shares this rank's machine (and its shared memory);
	 * 2 if it does and is the lowest rank there */
	int (*local)(const struct tg_dist *d, unsigned r);
	/* start a run (collective): every rank passes the same node count
	 * and digest of its configuration, or the run is refused (-EPROTO) */
	int (*start)(struct tg_dist *d, unsigned nodes, const uint8_t *owner, uint64_t digest,
		     tg_dist_deliver_fn fn, void *arg);
	/* a frame of a local port for the rank of port f->dst */
	int (*send)(struct tg_dist *d, const struct tg_dist_frame *f);
	/* before executing cycle t: announce t (with `up`, the nodes brought
	 * up so far) and wait until every peer has executed every cycle
	 * before t + 1 - lookahead, delivering the frames that arrive */
	int (*sync)(struct tg_dist *d, uint64_t t, unsigned up, unsigned lookahead);
	/* the first cycle that needs more from the peers than has come, at
	 * the lookahead of the last sync: cycles before it may pass at once */
	uint64_t (*horizon)(const struct tg_dist *d);
	/* largest bring-up count the peers announced as of cycle t */
	unsigned (*peer_up)(const struct tg_dist *d, uint64_t t);
	/* end the run at cycle `cycle` (collective): tell the peers, take
	 * what they still send until each has ended its run */
	int (*stop)(struct tg_dist *d, uint64_t cycle);
	/* after stop (collective): rank 0 gets every rank's file in all[r]
	 * (all[0] = mine), each read from its start; others send theirs */
	int (*gather)(struct tg_dist *d, FILE *mine, FILE **all);
	const char *(*error)(const struct tg_dist *d);
};

struct tg_dist {
	const struct tg_dist_ops *ops;
};

/* Rule of placement: owner[n] for N nodes over K ranks from "block"
 * (node n on rank n * K / N, the default), "cyclic" (n mod K) or lists
 * "L0/L1/..." (rank r gets the nodes of list r, like 0-3,8; every node
 * exactly once, every rank some).  0, or -EINVAL with the reason in err. */
int tg_dist_place(const char *rule, unsigned nodes, unsigned ranks, uint8_t *owner, char *err,
		  size_t errn);

/* Distributed runs over the ranks of an MPI communicator.  Declared when
 * mpi.h is included first. */
#ifdef MPI_VERSION
/*
 * Join the ranks of comm (collective; comm is duplicated).  A peer silent
 * for timeout_ms (0: 5000) while awaited ends the run with -ETIMEDOUT;
 * while *stop (may be NULL) is nonzero every wait ends with -EINTR.  NULL
 * and errno on failure, the reason in err.
 */
struct tg_dist *tg_dist_mpi_open(MPI_Comm comm, unsigned timeout_ms,
				 volatile const sig_atomic_t *stop, char *err, size_t errn);
#endif

/* Free a connection (after the simulators using it are destroyed).
 * Accepts NULL.  After a failure, the buffers of sends still in flight
 * are kept until the program ends (MPI may read them until MPI_Finalize). */
void tg_dist_close(struct tg_dist *d);

/* The rank this rank waits for now, or -1 (for messages on a signal). */
int tg_dist_waiting_for(const struct tg_dist *d);

/* Messages sent and seconds spent waiting for peers, for speed figures. */
void tg_dist_counts(const struct tg_dist *d, uint64_t *msgs, double *wait_s);

#endif /* TG_DIST_H */
