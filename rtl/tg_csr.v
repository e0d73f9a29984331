// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// CSR page: identity, node id, cycle counter, host-memory size, link-layer
// configuration, event counters and the timestamps used for latency breakdowns.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_csr #(
    parameter NUM_CTX   = 16,  // contexts, reported in CONFIG
    parameter MAX_READS = 8,   // outstanding fetches, reported in CONFIG
    parameter NUM_QUEUES = 16, // queue-table entries, reported in CONFIG
    parameter BLOCK_BYTES = 64, // largest frame payload in bytes, reported in CONFIG
    parameter SPILL_RING = 1,  // 1: the REQ spill ring is built (SPILL_BASE, SPILL_CFG); reported in CONFIG
    parameter LINK_LAYER = 1,  // 1: the reliable link layer is built; reported in CONFIG
    parameter CNT_W     = 64   // width of event counters (16..64)
) (
    input  wire        clk,
    input  wire        rst,

    input  wire [15:0] cfg_node_id,
    input  wire [31:0] cfg_clock_khz,     // this core's clock (CLOCK_KHZ)

    // register access from the host port (read data is combinational)
    input  wire [11:0] csr_addr,
    output reg  [63:0] csr_rdata,
    input  wire        csr_wr_en,
    input  wire [63:0] csr_wdata,

    // registers of the queue table, read through this page
    input  wire        qt_hit,
    input  wire [63:0] qt_rdata,

    // configuration out
    output wire [31:0] cfg_mem_size,
    output wire [31:0] cfg_read_timeout,
    output wire [31:0] cfg_req_backoff,
    output wire [31:0] cfg_spill_base,
    output wire [4:0]  cfg_spill_log2,
    input  wire [31:0] st_spill_count,
    output wire [63:0] cycles,
    input  wire [31:0] in_skip,           // cycles this edge stands for besides itself (0 on a board)
    output wire        cfg_link_enable,
    output wire [31:0] cfg_link_rto,
    output wire [7:0]  cfg_link_max_retries,
    output wire [15:0] cfg_link_ack_delay,
    output wire [31:0] cfg_link_rx_wait,
    output wire        cfg_link_gone_clear,   // pulse: LINK_GONE written
    input  wire        st_link_on,
    input  wire        st_link_gone_any,
    input  wire [15:0] st_link_gone_peer,

    // events
    input  wire        ev_tx_frame,
    input  wire        ev_rx_frame,
    input  wire        ev_drop_fcs,
    input  wire        ev_drop_type,
    input  wire        ev_drop_malformed,
    input  wire        ev_refused,
    input  wire        ev_host_error,
    input  wire        ev_stray,
    input  wire        ev_req_accepted,
    input  wire        ev_req_refused,
    input  wire        ev_req_retry,
    input  wire        ev_host_req,
    input  wire        ev_tx_start,
    input  wire        ev_rx_end,
    input  wire        ev_rx_done,
    input  wire        ev_host_resp,
    input  wire        ev_enq_done,
    input  wire        ev_atomic,
    input  wire        ev_spill,
    input  wire        ev_link_retx,
    input  wire        ev_link_dup_drop,
    input  wire        ev_link_ooo_drop,
    input  wire        ev_link_busy_drop,
    input  wire        ev_link_nak_sent,
    input  wire        ev_link_ack_sent,
    input  wire        ev_link_gone_drop,
    input  wire        ev_prot_refused
);

initial begin
    if (CNT_W < 16 || CNT_W > 64) begin
        $error("%m: CNT_W must be in 16..64");
    end
end

localparam NCNT = 21;
localparam NTS  = 6;

reg [63:0]      cycles_reg,   cycles_next;
reg [31:0]      mem_size_reg, mem_size_next;
reg [63:0]      scratch_reg,  scratch_next;
reg [31:0]      rdto_reg,     rdto_next;
reg [31:0]      backoff_reg,  backoff_next;
reg [31:0]      spbase_reg,   spbase_next;
reg [4:0]       splog2_reg,   splog2_next;
reg [31:0]      lcfg_reg,     lcfg_next;
reg [31:0]      lrto_reg,     lrto_next;
reg [31:0]      lwait_reg,    lwait_next;
// counters and timestamps: arrays written by index (an event steps its
// counter or stamps its timestamp; nothing else is copied)
reg [CNT_W-1:0] cnt_reg  [0:NCNT-1];
reg [63:0]      ts_reg   [0:NTS-1];

wire [NCNT-1:0] cnt_ev = {ev_prot_refused, ev_link_gone_drop, ev_link_ack_sent, ev_link_nak_sent, ev_link_busy_drop,
                          ev_link_ooo_drop, ev_link_dup_drop, ev_link_retx, ev_spill, ev_atomic, ev_req_retry, ev_req_refused, ev_req_accepted, ev_stray, ev_host_error, ev_refused, ev_drop_malformed,
                          ev_drop_type, ev_drop_fcs, ev_rx_frame, ev_tx_frame};
wire [NTS-1:0]  ts_ev  = {ev_enq_done, ev_host_resp, ev_rx_done, ev_rx_end, ev_tx_start, ev_host_req};

assign cfg_mem_size     = mem_size_reg;
assign cfg_read_timeout = rdto_reg;
assign cfg_req_backoff  = backoff_reg;
assign cfg_spill_base   = spbase_reg;
assign cfg_spill_log2   = splog2_reg;
assign cycles       = cycles_reg;
assign cfg_link_enable      = lcfg_reg[0];
assign cfg_link_max_retries = lcfg_reg[15:8];
assign cfg_link_ack_delay   = lcfg_reg[31:16];
assign cfg_link_rto         = lrto_reg;
assign cfg_link_rx_wait     = lwait_reg;
assign cfg_link_gone_clear  = csr_wr_en && (csr_addr == `TG_CSR_REG_LINK_GONE);

// ---------------------------------------------------------------- read mux
wire [15:0] ver_major = `TG_VERSION_MAJOR;
wire [15:0] ver_minor = `TG_VERSION_MINOR;
wire [31:0] id_magic  = `TG_ID_MAGIC;
wire [23:0] mac_oui   = `TG_MAC_OUI;
wire [7:0]  cfg_ctx   = NUM_CTX;
wire [7:0]  cfg_reads = MAX_READS;
wire [7:0]  cfg_qs    = NUM_QUEUES;
localparam [31:0] BLK_BYTES = BLOCK_BYTES;
wire [7:0]  cfg_block = BLK_BYTES[7:0];
wire [1:0]  cfg_built = {LINK_LAYER != 0, SPILL_RING != 0}; // CONFIG_LINK, CONFIG_SPILL

function [63:0] widen;
    input [CNT_W-1:0] v;
    begin
        widen = 64'd0;
        widen[CNT_W-1:0] = v;
    end
endfunction

always @* begin
    case (csr_addr)
        `TG_CSR_REG_REQ_ACCEPTED:   csr_rdata = widen(cnt_reg[8]);
        `TG_CSR_REG_REQ_REFUSED:    csr_rdata = widen(cnt_reg[9]);
        `TG_CSR_REG_REQ_RETRIES:    csr_rdata = widen(cnt_reg[10]);
        `TG_CSR_REG_REQ_BACKOFF:    csr_rdata = {32'd0, backoff_reg};
        `TG_CSR_REG_ATOMICS:        csr_rdata = widen(cnt_reg[11]);
        `TG_CSR_REG_REQ_SPILLED:    csr_rdata = widen(cnt_reg[12]);
        `TG_CSR_REG_SPILL_BASE:     csr_rdata = {32'd0, spbase_reg};
        `TG_CSR_REG_SPILL_CFG:      csr_rdata = {st_spill_count, 27'd0, splog2_reg};
        `TG_CSR_REG_TS_ENQ_DONE:    csr_rdata = ts_reg[5];
        `TG_CSR_REG_LINK_CFG:       csr_rdata = {31'd0, st_link_on, lcfg_reg};
        `TG_CSR_REG_LINK_RTO:       csr_rdata = {32'd0, lrto_reg};
        `TG_CSR_REG_LINK_RX_WAIT:   csr_rdata = {32'd0, lwait_reg};
        `TG_CSR_REG_LINK_GONE:      csr_rdata = {st_link_gone_any, 47'd0, st_link_gone_peer};
        `TG_CSR_REG_LINK_RETX:      csr_rdata = widen(cnt_reg[13]);
        `TG_CSR_REG_LINK_DUP_DROP:  csr_rdata = widen(cnt_reg[14]);
        `TG_CSR_REG_LINK_OOO_DROP:  csr_rdata = widen(cnt_reg[15]);
        `TG_CSR_REG_LINK_BUSY_DROP: csr_rdata = widen(cnt_reg[16]);
        `TG_CSR_REG_LINK_NAKS_SENT: csr_rdata = widen(cnt_reg[17]);
        `TG_CSR_REG_LINK_ACKS_SENT: csr_rdata = widen(cnt_reg[18]);
        `TG_CSR_REG_LINK_PEER_GONE: csr_rdata = widen(cnt_reg[19]);
        `TG_CSR_REG_PROT_REFUSED:   csr_rdata = widen(cnt_reg[20]);
        `TG_CSR_REG_CLOCK_KHZ:      csr_rdata = {32'd0, cfg_clock_khz};
        `TG_CSR_REG_ID:             csr_rdata = {id_magic, ver_major, ver_minor};
        `TG_CSR_REG_NODE_ID:        csr_rdata = {48'd0, cfg_node_id};
        `TG_CSR_REG_CYCLES:         csr_rdata = cycles_reg;
        `TG_CSR_REG_MEM_SIZE:       csr_rdata = {32'd0, mem_size_reg};
        `TG_CSR_REG_MAC:            csr_rdata = {16'd0, mac_oui, 8'h00, cfg_node_id};
        `TG_CSR_REG_CONFIG:         csr_rdata = {30'd0, cfg_built, cfg_block, cfg_qs, cfg_reads, cfg_ctx};
        `TG_CSR_REG_SCRATCH:        csr_rdata = scratch_reg;
        `TG_CSR_REG_READ_TIMEOUT:   csr_rdata = {32'd0, rdto_reg};
        `TG_CSR_REG_TX_FRAMES:      csr_rdata = widen(cnt_reg[0]);
        `TG_CSR_REG_RX_FRAMES:      csr_rdata = widen(cnt_reg[1]);
        `TG_CSR_REG_RX_DROP_FCS:    csr_rdata = widen(cnt_reg[2]);
        `TG_CSR_REG_RX_DROP_TYPE:   csr_rdata = widen(cnt_reg[3]);
        `TG_CSR_REG_RX_DROP_MALFORMED: csr_rdata = widen(cnt_reg[4]);
        `TG_CSR_REG_RX_REFUSED:     csr_rdata = widen(cnt_reg[5]);
        `TG_CSR_REG_HOST_ERRORS:    csr_rdata = widen(cnt_reg[6]);
        `TG_CSR_REG_RX_STRAY:       csr_rdata = widen(cnt_reg[7]);
        `TG_CSR_REG_TS_HOST_REQ:    csr_rdata = ts_reg[0];
        `TG_CSR_REG_TS_TX_START:    csr_rdata = ts_reg[1];
        `TG_CSR_REG_TS_RX_END:      csr_rdata = ts_reg[2];
        `TG_CSR_REG_TS_RX_DONE:     csr_rdata = ts_reg[3];
        `TG_CSR_REG_TS_HOST_RESP:   csr_rdata = ts_reg[4];
        default:                    csr_rdata = qt_hit ? qt_rdata : 64'd0;
    endcase
end

// ---------------------------------------------------------------- next state
integer i;

always @* begin
    cycles_next   = cycles_reg + {32'd0, in_skip} + 64'd1;
    mem_size_next = mem_size_reg;
    scratch_next  = scratch_reg;
    rdto_next     = rdto_reg;
    backoff_next  = backoff_reg;
    spbase_next   = spbase_reg;
    splog2_next   = splog2_reg;
    lcfg_next     = lcfg_reg;
    lrto_next     = lrto_reg;
    lwait_next    = lwait_reg;
    if (csr_wr_en) begin
        if (csr_addr == `TG_CSR_REG_MEM_SIZE) begin
            mem_size_next = csr_wdata[31:0];
        end
        if (csr_addr == `TG_CSR_REG_SCRATCH) begin
            scratch_next = csr_wdata;
        end
        if (csr_addr == `TG_CSR_REG_READ_TIMEOUT) begin
            rdto_next = csr_wdata[31:0];
        end
        if (csr_addr == `TG_CSR_REG_REQ_BACKOFF) begin
            backoff_next = csr_wdata[31:0];
        end
        // without a spill ring both registers stay 0
        if (csr_addr == `TG_CSR_REG_SPILL_BASE && SPILL_RING != 0) begin
            spbase_next = csr_wdata[31:0];
        end
        if (csr_addr == `TG_CSR_REG_SPILL_CFG && SPILL_RING != 0) begin
            splog2_next = csr_wdata[4:0];
        end
        if (csr_addr == `TG_CSR_REG_LINK_CFG) begin
            lcfg_next = {csr_wdata[31:8], 7'd0, csr_wdata[0]};
        end
        if (csr_addr == `TG_CSR_REG_LINK_RTO) begin
            lrto_next = csr_wdata[31:0];
        end
        if (csr_addr == `TG_CSR_REG_LINK_RX_WAIT) begin
            lwait_next = csr_wdata[31:0];
        end
    end
end

always @(posedge clk) begin
    cycles_reg   <= cycles_next;
    mem_size_reg <= mem_size_next;
    scratch_reg  <= scratch_next;
    rdto_reg     <= rdto_next;
    backoff_reg  <= backoff_next;
    spbase_reg   <= spbase_next;
    splog2_reg   <= splog2_next;
    lcfg_reg     <= lcfg_next;
    lrto_reg     <= lrto_next;
    lwait_reg    <= lwait_next;
    for (i = 0; i < NCNT; i = i + 1) begin
        if (cnt_ev[i]) begin
            cnt_reg[i] <= cnt_reg[i] + {{(CNT_W-1){1'b0}}, 1'b1};
        end
    end
    for (i = 0; i < NTS; i = i + 1) begin
        if (ts_ev[i]) begin
            ts_reg[i] <= cycles_reg;
        end
    end
    if (rst) begin
        cycles_reg   <= 64'd0;
        mem_size_reg <= 32'd0;
        scratch_reg  <= 64'd0;
        rdto_reg     <= `TG_READ_TIMEOUT_RESET;
        backoff_reg  <= `TG_REQ_BACKOFF_RESET;
        spbase_reg   <= 32'd0;
        splog2_reg   <= 5'd0;
        lcfg_reg     <= `TG_LINK_CFG_RESET;
        lrto_reg     <= `TG_LINK_RTO_RESET;
        lwait_reg    <= `TG_LINK_RX_WAIT_RESET;
        for (i = 0; i < NCNT; i = i + 1) begin
            cnt_reg[i] <= {CNT_W{1'b0}};
        end
        for (i = 0; i < NTS; i = i + 1) begin
            ts_reg[i] <= 64'd0;
        end
    end
end

endmodule

`default_nettype wire
