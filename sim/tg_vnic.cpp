// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Glue between the Verilated tg_nic model (C++) and the C simulator.
#include <cerrno>
#include <memory>
#include <new>

#include "Vtg_nic.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

#include "tg_vnic.h"

struct tg_vnic {
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Vtg_nic> top;
	std::unique_ptr<VerilatedVcdC> vcd;
	uint64_t ps_per_cycle = 8000;
};

extern "C" struct tg_vnic *tg_vnic_new(unsigned node_id, const char *vcd_path,
				       unsigned ps_per_cycle)
{
	tg_vnic *v = new (std::nothrow) tg_vnic;

	if (!v) {
		errno = ENOMEM;
		return nullptr;
	}
	try {
		v->ps_per_cycle = ps_per_cycle ? ps_per_cycle : 8000;
		v->ctx.reset(new VerilatedContext);
		v->ctx->randReset(0);          // deterministic initial values
		if (vcd_path)
			v->ctx->traceEverOn(true);
		v->top.reset(new Vtg_nic(v->ctx.get(), "tg_nic"));
		v->top->cfg_node_id = static_cast<uint16_t>(node_id);
		v->top->clk = 0;
		v->top->rst = 1;
		if (vcd_path) {
			v->vcd.reset(new VerilatedVcdC);
			v->top->trace(v->vcd.get(), 99);
			v->vcd->open(vcd_path);
			if (!v->vcd->isOpen()) {
				errno = EIO;
				delete v;
				return nullptr;
			}
		}
		v->top->eval();
	} catch (...) {
		delete v;
		errno = ENOMEM;
		return nullptr;
	}
	return v;
}

extern "C" void tg_vnic_free(struct tg_vnic *v)
{
	if (!v)
		return;
	if (v->vcd)
		v->vcd->close();
	if (v->top)
		v->top->final();
	delete v;
}

extern "C" void tg_vnic_settle(struct tg_vnic *v, const struct tg_vnic_in *in,
			       struct tg_vnic_out *out, uint64_t cycle)
{
	Vtg_nic *t = v->top.get();

	t->clk = 0;
	t->rst = in->rst;
	t->s_host_req_valid = in->host_req_valid;
	t->s_host_req_write = in->host_req_write;
	t->s_host_req_addr = in->host_req_addr;
	t->s_host_req_wdata = in->host_req_wdata;
	t->s_host_req_wstrb = in->host_req_wstrb;
	t->s_host_req_last = in->host_req_last;
	t->m_host_resp_ready = in->host_resp_ready;
	t->m_mem_req_ready = in->mem_req_ready;
	t->s_mem_resp_valid = in->mem_resp_valid;
	t->s_mem_resp_rdata = in->mem_resp_rdata;
	t->m_axis_tx_tready = in->tx_tready;
	t->s_axis_rx_tdata = in->rx_tdata;
	t->s_axis_rx_tkeep = in->rx_tkeep;
	t->s_axis_rx_tvalid = in->rx_tvalid;
	t->s_axis_rx_tlast = in->rx_tlast;
	t->s_axis_rx_tuser = in->rx_tuser;
	t->cfg_clock_khz = in->clock_khz;
	t->ff_skip = in->ff_skip;
	t->eval();
	if (v->vcd)
		v->vcd->dump(cycle * v->ps_per_cycle);

	out->host_req_ready = t->s_host_req_ready;
	out->host_resp_valid = t->m_host_resp_valid;
	out->host_resp_rdata = t->m_host_resp_rdata;
	out->mem_req_valid = t->m_mem_req_valid;
	out->mem_req_write = t->m_mem_req_write;
	out->mem_req_addr = t->m_mem_req_addr;
	out->mem_req_wdata = t->m_mem_req_wdata;
	out->mem_req_wstrb = t->m_mem_req_wstrb;
	out->tx_tdata = t->m_axis_tx_tdata;
	out->tx_tkeep = t->m_axis_tx_tkeep;
	out->tx_tvalid = t->m_axis_tx_tvalid;
	out->tx_tlast = t->m_axis_tx_tlast;
	out->rx_tready = t->s_axis_rx_tready;
	out->irq = t->irq;
}

extern "C" int tg_vnic_idle(const struct tg_vnic *v)
{
	return v->top->ff_idle;
}

extern "C" int tg_vnic_quiet(const struct tg_vnic *v, int tx_tready)
{
	return v->top->ff_wait && !(v->top->m_axis_tx_tvalid && tx_tready);
}

extern "C" int tg_vnic_irq(const struct tg_vnic *v)
{
	return v->top->irq;
}

extern "C" void tg_vnic_posedge(struct tg_vnic *v, uint64_t cycle)
{
	v->top->clk = 1;
	v->top->eval();
	if (v->vcd)
		v->vcd->dump(cycle * v->ps_per_cycle + v->ps_per_cycle / 2);
}
