// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// CSR page: identity, node id, cycle counter, host-memory size, link-layer
// configuration, timestamps, and event counters kept in a table (distributed
// RAM) that small per-event pending counts are flushed into, one row a cycle.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_csr #(
    parameter NUM_CTX   = 16,  // contexts, reported in CONFIG
    parameter MAX_READS = 8,   // outstanding fetches, reported in CONFIG
    parameter NUM_QUEUES = 16, // queue-table entries, reported in CONFIG
    parameter BLOCK_BYTES = 64, // largest frame payload in bytes, reported in CONFIG
    parameter SPILL_RING = 1,  // 1: the REQ spill ring is built (SPILL_BASE, SPILL_CFG); reported in CONFIG
    parameter LINK_LAYER = 1,  // 1: the reliable link layer is built; reported in CONFIG;
                               // 0: its 7 counters are not built and read 0
    parameter CNT_W     = 64   // width of event counters in bits (16..64): a counter wraps at 2^CNT_W
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

// The event counters are rows of a table written by index, one row a
// cycle. An event does not write the table: it steps its counter's
// pending count. A flush pointer visits the rows in turn, one a cycle,
// and writes each row's word plus its pending count back into it, so a
// pending count never exceeds NROW and simultaneous events on every
// counter, in every cycle, are all counted. A read returns the row's word
// plus its pending count: a counter read in cycle t counts the events of
// every cycle before t, exactly as if each event had written it at once.
// Rows not written since reset read 0, so a reset clears every counter at
// once. Without the link layer its 7 counters (whose events are then
// never raised) have no row and read 0.
localparam NCNT  = 21;                       // event counters (cnt_ev)
localparam NLINK = 7;                        // of them the link layer's, cnt_ev[19:13]
localparam NROW  = (LINK_LAYER != 0) ? NCNT : NCNT - NLINK;   // table rows in use
localparam NTS   = 6;                        // timestamps, in flip-flops

// bits to hold the values 0..n
function integer bits_for;
    input integer n;
    integer b;
    begin
        b = 1;
        while ((1 << b) <= n) begin
            b = b + 1;
        end
        bits_for = b;
    end
endfunction
localparam ROW_W = bits_for(NROW - 1);       // a row index
localparam PW    = bits_for(NROW);           // a pending count (at most NROW)
localparam [31:0]      LAST_ROW = NROW - 1;
localparam [ROW_W-1:0] ONE_ROW  = 1;
localparam [ROW_W-1:0] NO_ROW   = {ROW_W{1'b1}};   // an offset that is no row (NROW < 2^ROW_W below)

initial begin
    if (CNT_W < 16 || CNT_W > 64) begin
        $error("%m: CNT_W must be in 16..64");
    end
    if (NROW >= (1 << ROW_W) || NROW >= (1 << PW)) begin
        $error("%m: %0d rows need a wider ROW_W or PW", NROW);
    end
end

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
// the counters' pending counts, the rows written since reset, the row the
// flush writes this cycle
reg [NROW*PW-1:0] pend_reg,   pend_next;
reg [NROW-1:0]    valid_reg,  valid_next;
reg [ROW_W-1:0]   fl_row_reg, fl_row_next;
// the counter table: one write port (the flush), read at the flush's row
// and at the host's (asynchronously: distributed RAM)
reg [CNT_W-1:0] cnt_mem [0:(1<<ROW_W)-1];
// timestamps: an array written by index (an event stamps its timestamp)
reg [63:0]      ts_reg   [0:NTS-1];

wire [NCNT-1:0] cnt_ev = {ev_prot_refused, ev_link_gone_drop, ev_link_ack_sent, ev_link_nak_sent, ev_link_busy_drop,
                          ev_link_ooo_drop, ev_link_dup_drop, ev_link_retx, ev_spill, ev_atomic, ev_req_retry, ev_req_refused, ev_req_accepted, ev_stray, ev_host_error, ev_refused, ev_drop_malformed,
                          ev_drop_type, ev_drop_fcs, ev_rx_frame, ev_tx_frame};
wire [NTS-1:0]  ts_ev  = {ev_enq_done, ev_host_resp, ev_rx_done, ev_rx_end, ev_tx_start, ev_host_req};
// the events of the rows: without the link layer its counters have none
wire [NROW-1:0] row_ev;
generate
if (LINK_LAYER != 0) begin : g_rows_link
    assign row_ev = cnt_ev;
end else begin : g_rows
    assign row_ev = {cnt_ev[NCNT-1], cnt_ev[NCNT-NLINK-2:0]};
    /* verilator lint_off UNUSEDSIGNAL */
    wire [NLINK-1:0] unused_link_ev = cnt_ev[NCNT-2:NCNT-NLINK-1];   // tied to 0 without the layer
    /* verilator lint_on UNUSEDSIGNAL */
end
endgenerate

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

// ---------------------------------------------------------------- counter rows
// the host's row: the counter at the offset (NO_ROW: none)
localparam [31:0] ROW_PROT  = (LINK_LAYER != 0) ? 20 : 13;
localparam [31:0] ROW_LINK  = 13;                  // the link layer's first, when built
localparam [31:0] ROW_LINK1 = ROW_LINK + 1, ROW_LINK2 = ROW_LINK + 2, ROW_LINK3 = ROW_LINK + 3,
                  ROW_LINK4 = ROW_LINK + 4, ROW_LINK5 = ROW_LINK + 5, ROW_LINK6 = ROW_LINK + 6;
wire              link_rows = (LINK_LAYER != 0);

reg [ROW_W-1:0] rd_row;
always @* begin
    case (csr_addr)
        `TG_CSR_REG_TX_FRAMES:         rd_row = 0;
        `TG_CSR_REG_RX_FRAMES:         rd_row = 1;
        `TG_CSR_REG_RX_DROP_FCS:       rd_row = 2;
        `TG_CSR_REG_RX_DROP_TYPE:      rd_row = 3;
        `TG_CSR_REG_RX_DROP_MALFORMED: rd_row = 4;
        `TG_CSR_REG_RX_REFUSED:        rd_row = 5;
        `TG_CSR_REG_HOST_ERRORS:       rd_row = 6;
        `TG_CSR_REG_RX_STRAY:          rd_row = 7;
        `TG_CSR_REG_REQ_ACCEPTED:      rd_row = 8;
        `TG_CSR_REG_REQ_REFUSED:       rd_row = 9;
        `TG_CSR_REG_REQ_RETRIES:       rd_row = 10;
        `TG_CSR_REG_ATOMICS:           rd_row = 11;
        `TG_CSR_REG_REQ_SPILLED:       rd_row = 12;
        `TG_CSR_REG_LINK_RETX:         rd_row = link_rows ? ROW_LINK[ROW_W-1:0] : NO_ROW;
        `TG_CSR_REG_LINK_DUP_DROP:     rd_row = link_rows ? ROW_LINK1[ROW_W-1:0] : NO_ROW;
        `TG_CSR_REG_LINK_OOO_DROP:     rd_row = link_rows ? ROW_LINK2[ROW_W-1:0] : NO_ROW;
        `TG_CSR_REG_LINK_BUSY_DROP:    rd_row = link_rows ? ROW_LINK3[ROW_W-1:0] : NO_ROW;
        `TG_CSR_REG_LINK_NAKS_SENT:    rd_row = link_rows ? ROW_LINK4[ROW_W-1:0] : NO_ROW;
        `TG_CSR_REG_LINK_ACKS_SENT:    rd_row = link_rows ? ROW_LINK5[ROW_W-1:0] : NO_ROW;
        `TG_CSR_REG_LINK_PEER_GONE:    rd_row = link_rows ? ROW_LINK6[ROW_W-1:0] : NO_ROW;
        `TG_CSR_REG_PROT_REFUSED:      rd_row = ROW_PROT[ROW_W-1:0];
        default:                       rd_row = NO_ROW;
    endcase
end

// a row's pending count and whether it was written since reset, by index
reg [PW-1:0] fl_pend, rd_pend;
reg          fl_written, rd_written;
integer i;
always @* begin
    fl_pend    = {PW{1'b0}};
    rd_pend    = {PW{1'b0}};
    fl_written = 1'b0;
    rd_written = 1'b0;
    for (i = 0; i < NROW; i = i + 1) begin
        if (fl_row_reg == i[ROW_W-1:0]) begin
            fl_pend    = pend_reg[i*PW +: PW];
            fl_written = valid_reg[i];
        end
        if (rd_row == i[ROW_W-1:0]) begin
            rd_pend    = pend_reg[i*PW +: PW];
            rd_written = valid_reg[i];
        end
    end
end

// a counter's value: its word (0 until the row is written after reset)
// plus its pending count, wrapping at CNT_W bits
function [CNT_W-1:0] row_value;
    input             written;
    input [CNT_W-1:0] word;
    input [PW-1:0]    pend;
    begin
        row_value = (written ? word : {CNT_W{1'b0}}) + {{(CNT_W-PW){1'b0}}, pend};
    end
endfunction

wire [CNT_W-1:0] fl_value = row_value(fl_written, cnt_mem[fl_row_reg], fl_pend);
wire [CNT_W-1:0] rd_value = row_value(rd_written, cnt_mem[rd_row], rd_pend);
wire [63:0]      rd_cnt   = widen(rd_value);

function [63:0] widen;
    input [CNT_W-1:0] v;
    begin
        widen = 64'd0;
        widen[CNT_W-1:0] = v;
    end
endfunction

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

always @* begin
    case (csr_addr)
        `TG_CSR_REG_REQ_BACKOFF:    csr_rdata = {32'd0, backoff_reg};
        `TG_CSR_REG_SPILL_BASE:     csr_rdata = {32'd0, spbase_reg};
        `TG_CSR_REG_SPILL_CFG:      csr_rdata = {st_spill_count, 27'd0, splog2_reg};
        `TG_CSR_REG_TS_ENQ_DONE:    csr_rdata = ts_reg[5];
        `TG_CSR_REG_LINK_CFG:       csr_rdata = {31'd0, st_link_on, lcfg_reg};
        `TG_CSR_REG_LINK_RTO:       csr_rdata = {32'd0, lrto_reg};
        `TG_CSR_REG_LINK_RX_WAIT:   csr_rdata = {32'd0, lwait_reg};
        `TG_CSR_REG_LINK_GONE:      csr_rdata = {st_link_gone_any, 47'd0, st_link_gone_peer};
        `TG_CSR_REG_CLOCK_KHZ:      csr_rdata = {32'd0, cfg_clock_khz};
        `TG_CSR_REG_ID:             csr_rdata = {id_magic, ver_major, ver_minor};
        `TG_CSR_REG_NODE_ID:        csr_rdata = {48'd0, cfg_node_id};
        `TG_CSR_REG_CYCLES:         csr_rdata = cycles_reg;
        `TG_CSR_REG_MEM_SIZE:       csr_rdata = {32'd0, mem_size_reg};
        `TG_CSR_REG_MAC:            csr_rdata = {16'd0, mac_oui, 8'h00, cfg_node_id};
        `TG_CSR_REG_CONFIG:         csr_rdata = {30'd0, cfg_built, cfg_block, cfg_qs, cfg_reads, cfg_ctx};
        `TG_CSR_REG_SCRATCH:        csr_rdata = scratch_reg;
        `TG_CSR_REG_READ_TIMEOUT:   csr_rdata = {32'd0, rdto_reg};
        `TG_CSR_REG_TS_HOST_REQ:    csr_rdata = ts_reg[0];
        `TG_CSR_REG_TS_TX_START:    csr_rdata = ts_reg[1];
        `TG_CSR_REG_TS_RX_END:      csr_rdata = ts_reg[2];
        `TG_CSR_REG_TS_RX_DONE:     csr_rdata = ts_reg[3];
        `TG_CSR_REG_TS_HOST_RESP:   csr_rdata = ts_reg[4];
        `TG_CSR_REG_TX_FRAMES, `TG_CSR_REG_RX_FRAMES, `TG_CSR_REG_RX_DROP_FCS, `TG_CSR_REG_RX_DROP_TYPE,
        `TG_CSR_REG_RX_DROP_MALFORMED, `TG_CSR_REG_RX_REFUSED, `TG_CSR_REG_HOST_ERRORS, `TG_CSR_REG_RX_STRAY,
        `TG_CSR_REG_REQ_ACCEPTED, `TG_CSR_REG_REQ_REFUSED, `TG_CSR_REG_REQ_RETRIES, `TG_CSR_REG_ATOMICS,
        `TG_CSR_REG_REQ_SPILLED, `TG_CSR_REG_LINK_RETX, `TG_CSR_REG_LINK_DUP_DROP, `TG_CSR_REG_LINK_OOO_DROP,
        `TG_CSR_REG_LINK_BUSY_DROP, `TG_CSR_REG_LINK_NAKS_SENT, `TG_CSR_REG_LINK_ACKS_SENT,
        `TG_CSR_REG_LINK_PEER_GONE, `TG_CSR_REG_PROT_REFUSED:
                                    csr_rdata = (rd_row == NO_ROW) ? 64'd0 : rd_cnt;
        default:                    csr_rdata = qt_hit ? qt_rdata : 64'd0;
    endcase
end

// ---------------------------------------------------------------- next state

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

// the flush: the row at the pointer takes its value, its pending count
// restarts from this cycle's event; the pointer moves on
always @* begin
    fl_row_next = (fl_row_reg == LAST_ROW[ROW_W-1:0]) ? {ROW_W{1'b0}} : fl_row_reg + ONE_ROW;
    valid_next  = valid_reg;
    for (i = 0; i < NROW; i = i + 1) begin
        if (fl_row_reg == i[ROW_W-1:0]) begin
            valid_next[i] = 1'b1;
        end
        pend_next[i*PW +: PW] = ((fl_row_reg == i[ROW_W-1:0]) ? {PW{1'b0}} : pend_reg[i*PW +: PW]) +
                                {{(PW-1){1'b0}}, row_ev[i]};
    end
end

always @(posedge clk) begin
    cnt_mem[fl_row_reg] <= fl_value;
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
    pend_reg     <= pend_next;
    valid_reg    <= valid_next;
    fl_row_reg   <= fl_row_next;
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
        pend_reg     <= {(NROW*PW){1'b0}};
        valid_reg    <= {NROW{1'b0}};
        fl_row_reg   <= {ROW_W{1'b0}};
        for (i = 0; i < NTS; i = i + 1) begin
            ts_reg[i] <= 64'd0;
        end
    end
end

endmodule

`default_nettype wire
