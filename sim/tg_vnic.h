/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* C view of one Verilated tg_nic: set its inputs, settle, read its outputs, clock it. */
#ifndef TG_VNIC_H
#define TG_VNIC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Inputs of tg_nic (names follow the ports without the role prefix). */
struct tg_vnic_in {
	uint64_t host_req_addr, host_req_wdata;
	uint64_t mem_resp_rdata;
	uint64_t rx_tdata;
	uint8_t rst;
	uint8_t host_req_valid, host_req_write, host_req_wstrb, host_req_last;
	uint8_t host_resp_ready;
	uint8_t mem_req_ready, mem_resp_valid;
	uint8_t tx_tready;
	uint8_t rx_tkeep, rx_tvalid, rx_tlast, rx_tuser;
	uint32_t clock_khz;      /* the clock the simulation stands for (CLOCK_KHZ) */
	uint32_t ff_skip;        /* cycles the next edge stands for besides itself:
				  * cycles before it in which tg_vnic_quiet() held
				  * for their tx_tready and the other inputs were
				  * quiet (the edge's own inputs may be any), or
				  * cycles after it with quiet inputs while
				  * tg_vnic_idle() */
};

/* Outputs of tg_nic. */
struct tg_vnic_out {
	uint64_t host_resp_rdata;
	uint64_t mem_req_addr, mem_req_wdata;
	uint64_t tx_tdata;
	uint8_t host_req_ready, host_resp_valid;
	uint8_t mem_req_valid, mem_req_write, mem_req_wstrb;
	uint8_t tx_tkeep, tx_tvalid, tx_tlast;
	uint8_t rx_tready;
	uint8_t irq;
};

struct tg_vnic;

/* A NIC with cfg_node_id = node_id.  vcd_path: waveform file or NULL;
 * ps_per_cycle: clock period for the waveform time axis.  NULL + errno on
 * failure. */
struct tg_vnic *tg_vnic_new(unsigned node_id, const char *vcd_path, unsigned ps_per_cycle);

/* Close the waveform and free.  Accepts NULL. */
void tg_vnic_free(struct tg_vnic *v);

/* First half of cycle `cycle`: clock low, apply `in` and return the
 * outputs.  The core's ports are registers: the outputs are those of the
 * last edge, and the evaluation computes only the port registers' input
 * logic. */
void tg_vnic_settle(struct tg_vnic *v, const struct tg_vnic_in *in, struct tg_vnic_out *out,
		    uint64_t cycle);

/* Second half: rising clock edge with the same inputs. */
void tg_vnic_posedge(struct tg_vnic *v, uint64_t cycle);

/* After an edge: the NIC is idle (tg_nic's ff_idle), so that cycles with
 * quiet inputs change nothing in it but its cycle counter. */
int tg_vnic_idle(const struct tg_vnic *v);

/* After an edge: a cycle with quiet inputs and m_axis_tx_tready =
 * tx_tready changes nothing in the NIC but its free-running counts: it is
 * idle, or only waits at its network port (tg_nic's ff_wait) while no
 * beat it offers is taken. */
int tg_vnic_quiet(const struct tg_vnic *v, int tx_tready);

/* After an edge: the NIC's interrupt line as that edge left it (the
 * value tg_vnic_settle returns in the next cycle). */
int tg_vnic_irq(const struct tg_vnic *v);

#ifdef __cplusplus
}
#endif

#endif /* TG_VNIC_H */
