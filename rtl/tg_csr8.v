// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// CSR page of the byte-serial node: the registers of tg_csr for a node
// without the REQ spill ring and the link layer, with the event counters,
// the timestamps and the registers no logic reads kept in block RAM rather
// than in flip-flops. The RAM takes one counter update at a time, so each
// counter keeps the events it has not yet added in a few flip-flops, and
// each timestamp the age of an event not yet written; a read adds them
// in, so it returns what tg_csr would. One counter tg_csr lacks:
// RX_DROP_BUSY, the frames dropped because every receive slot was held.
// The RAM also keeps a copy of each context's OPERAND, COMPARE and KEY
// for the host target, which reads them here rather than from its own
// registers.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_csr8 #(
    parameter NUM_CTX    = 1,   // contexts, reported in CONFIG
    parameter MAX_READS  = 1,   // outstanding fetches, reported in CONFIG
    parameter NUM_QUEUES = 1,   // queue-table entries, reported in CONFIG
    parameter NUM_REGIONS = 1,  // region-table entries; 0: none, reported in CONFIG
    parameter BLOCK_BYTES = 16, // largest frame payload in bytes, reported in CONFIG
    parameter CNT_W      = 16,  // width of event counters (16..64)
    parameter CYC_LO_W   = 16,  // the cycle counter's low part ...
    parameter CYC_MID_W  = 24   // ... and middle part, in bits (the top part has the rest)
) (
    input  wire        clk,
    input  wire        rst,

    input  wire [15:0] cfg_node_id,

    // register access from the host port, at most one every other cycle,
    // csr_addr steady in the cycle before each: a read's data comes in the
    // cycle after csr_rd_en (only then); a write takes effect at once
    input  wire [11:0] csr_addr,
    input  wire        csr_rd_en,
    output wire [63:0] csr_rdata,
    input  wire        csr_wr_en,
    input  wire [63:0] csr_wdata,
    // with csr_copy the access is to a context register's copy instead
    // (csr_copy_idx: {context, 0 OPERAND / 1 COMPARE / 2 KEY}); a copy
    // reads 0 until written
    input  wire        csr_copy,
    input  wire [5:0]  csr_copy_idx,

    // registers of the queue table, read through this page (with the read)
    input  wire        qt_hit,
    input  wire [63:0] qt_rdata,

    // configuration out
    output wire [31:0] cfg_mem_size,
    output wire [31:0] cfg_read_timeout,
    output wire [31:0] cfg_req_backoff,
    output wire [63:0] cycles,

    // events (no counter's more than one every 8 cycles)
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
    input  wire        ev_atomic,
    input  wire        ev_prot_refused,
    input  wire        ev_drop_busy,
    input  wire        ev_host_req,
    input  wire        ev_tx_start,
    input  wire        ev_rx_end,
    input  wire        ev_rx_done,
    input  wire        ev_host_resp,
    input  wire        ev_enq_done
);

initial begin
    if (CNT_W < 16 || CNT_W > 64) begin
        $error("%m: CNT_W must be in 16..64");
    end
    if (CYC_LO_W < 1 || CYC_MID_W < 1 || CYC_LO_W + CYC_MID_W > 63) begin
        $error("%m: CYC_LO_W and CYC_MID_W must leave the cycle counter's top part a bit at least");
    end
end
localparam CYC_TOP_W = 64 - CYC_LO_W - CYC_MID_W;

localparam NCNT = 14;
localparam NTS  = 6;
localparam NCOPY = 4 * NUM_CTX;            // contexts' copies: OPERAND, COMPARE, KEY and a spare word each

// RAM words: the registers the host alone reads and writes, the counters
// and the timestamps; the contexts' copies from word 32 on
localparam [4:0] W_SCRATCH = 5'd0;
localparam [4:0] W_LCFG    = 5'd1;
localparam [4:0] W_LRTO    = 5'd2;
localparam [4:0] W_LWAIT   = 5'd3;
localparam [4:0] W_MEMSZ   = 5'd4;    // read back from here; the flip-flops the core uses are beside
localparam [4:0] W_RDTO    = 5'd5;
localparam [4:0] W_BOFF    = 5'd6;
localparam [4:0] W_TS      = 5'd8;    // timestamp i at W_TS + i, {W_TS[4:3], i}
localparam [4:0] W_CNT     = 5'd16;   // counter i at W_CNT + i, {W_CNT[4], i}

// ---------------------------------------------------------------- state
// the cycle counter in three parts, each counting when the parts below
// it are all ones (flags registered a cycle ahead), so that no carry runs
// through all 64 bits in one cycle
reg [CYC_LO_W-1:0]  cyc_lo_reg;
reg [CYC_MID_W-1:0] cyc_mid_reg;
reg [CYC_TOP_W-1:0] cyc_top_reg;
reg        cyc_lo_ones_reg;           // cyc_lo_reg is all ones
reg        cyc_mid_ones_reg;          // cyc_mid_reg is all ones
wire [63:0] cycles_reg = {cyc_top_reg, cyc_mid_reg, cyc_lo_reg};
reg [58:0] cyc_hi_m1_reg;             // cycles_reg[63:5] - 1
reg [31:0] mem_size_reg, rdto_reg, backoff_reg;
reg [31:0] valid_reg;                 // RAM word written since reset ...
reg [NCOPY-1:0] valid_cp_reg;         // ... and copy
reg [3:0]  pend_reg [0:NCNT-1];       // events not yet taken by an update
reg [3:0]  rr_reg;                    // the counter the next update looks at first
reg [NTS-1:0] tpend_reg;              // a timestamp not yet written ...
reg [4:0]  tage_reg [0:NTS-1];        // ... and the cycles since its event
// counter update, one at a time: the RAM word read last cycle and the
// events it adds, then the sum waiting for the write port
reg        upd_reg;
reg [3:0]  upd_idx_reg;
reg [3:0]  upd_add_reg;
reg        wpend_reg;
reg [3:0]  widx_reg;
reg [3:0]  wadd_reg;
reg [CNT_W-1:0] wval_reg;
// the read under way
reg        rd_ram_reg;                // RAM word (else rd_val_reg)
reg        rd_valid_word_reg;         // ... written since reset
reg [63:0] rd_val_reg;
reg        rd_cnt_reg;                // a counter: add rd_add_reg
reg [5:0]  rd_add_reg;

reg [63:0] ram [0:127];
reg [63:0] ram_q;

wire [NCNT-1:0] cnt_ev = {ev_drop_busy, ev_prot_refused, ev_atomic, ev_req_retry, ev_req_refused, ev_req_accepted, ev_stray,
                          ev_host_error, ev_refused, ev_drop_malformed, ev_drop_type, ev_drop_fcs, ev_rx_frame,
                          ev_tx_frame};
wire [NTS-1:0]  ts_ev  = {ev_enq_done, ev_host_resp, ev_rx_done, ev_rx_end, ev_tx_start, ev_host_req};

assign cfg_mem_size     = mem_size_reg;
assign cfg_read_timeout = rdto_reg;
assign cfg_req_backoff  = backoff_reg;
assign cycles           = cycles_reg;

// ---------------------------------------------------------------- decode
wire [15:0] ver_major = `TG_VERSION_MAJOR;
wire [15:0] ver_minor = `TG_VERSION_MINOR;
wire [31:0] id_magic  = `TG_ID_MAGIC;
wire [23:0] mac_oui   = `TG_MAC_OUI;
wire [7:0]  cfg_ctx   = NUM_CTX;
wire [7:0]  cfg_reads = MAX_READS;
wire [7:0]  cfg_qs    = NUM_QUEUES;
wire        cfg_noprt = (NUM_REGIONS == 0);
localparam [31:0] BLK_BYTES = BLOCK_BYTES;
wire [7:0]  cfg_block = BLK_BYTES[7:0];

// A register's place: a RAM word (with its value before the first write),
// or a value of constants and flip-flops. It is decoded from csr_addr in
// every cycle and registered, so an access uses the decode of the cycle
// before (the address is steady then: the port's rule); a value's
// flip-flops are read in the access's own cycle.
reg        n_ram;                     // decode of this cycle's csr_addr
reg        n_cnt, n_ts;               // ... a counter's or a timestamp's word
reg [4:0]  n_word;
reg [63:0] n_const;                   // the constant part of the value
reg        n_node, n_cycles, n_qt;    // ... and the flip-flops in it
reg        n_memsz, n_rdto, n_backoff;   // a RAM word the core also uses: written to a flip-flop copy too
always @* begin
    n_ram     = 1'b0;
    n_cnt     = 1'b0;
    n_ts      = 1'b0;
    n_word    = W_SCRATCH;
    n_const   = 64'd0;
    n_node    = 1'b0;
    n_cycles  = 1'b0;
    n_memsz   = 1'b0;
    n_rdto    = 1'b0;
    n_backoff = 1'b0;
    n_qt      = 1'b0;
    case (csr_addr)
        `TG_CSR_REG_ID:             n_const = {id_magic, ver_major, ver_minor};
        `TG_CSR_REG_NODE_ID:        n_node = 1'b1;
        `TG_CSR_REG_CYCLES:         n_cycles = 1'b1;
        `TG_CSR_REG_MEM_SIZE:       begin n_ram = 1'b1; n_word = W_MEMSZ; n_memsz = 1'b1; end
        `TG_CSR_REG_MAC:            begin n_const = {16'd0, mac_oui, 24'h000000}; n_node = 1'b1; end
        `TG_CSR_REG_CONFIG:         n_const = {29'd0, cfg_noprt, 2'd0, cfg_block, cfg_qs, cfg_reads, cfg_ctx};   // no spill ring, no link layer
        `TG_CSR_REG_READ_TIMEOUT:   begin n_ram = 1'b1; n_word = W_RDTO; n_const = `TG_READ_TIMEOUT_RESET; n_rdto = 1'b1; end
        `TG_CSR_REG_REQ_BACKOFF:    begin n_ram = 1'b1; n_word = W_BOFF; n_const = `TG_REQ_BACKOFF_RESET; n_backoff = 1'b1; end
        `TG_CSR_REG_SCRATCH:        begin n_ram = 1'b1; n_word = W_SCRATCH; end
        `TG_CSR_REG_LINK_CFG:       begin n_ram = 1'b1; n_word = W_LCFG;  n_const = `TG_LINK_CFG_RESET; end
        `TG_CSR_REG_LINK_RTO:       begin n_ram = 1'b1; n_word = W_LRTO;  n_const = `TG_LINK_RTO_RESET; end
        `TG_CSR_REG_LINK_RX_WAIT:   begin n_ram = 1'b1; n_word = W_LWAIT; n_const = `TG_LINK_RX_WAIT_RESET; end
        `TG_CSR_REG_TX_FRAMES:      begin n_ram = 1'b1; n_word = W_CNT + 5'd0; n_cnt = 1'b1;  end
        `TG_CSR_REG_RX_FRAMES:      begin n_ram = 1'b1; n_word = W_CNT + 5'd1; n_cnt = 1'b1;  end
        `TG_CSR_REG_RX_DROP_FCS:    begin n_ram = 1'b1; n_word = W_CNT + 5'd2; n_cnt = 1'b1;  end
        `TG_CSR_REG_RX_DROP_TYPE:   begin n_ram = 1'b1; n_word = W_CNT + 5'd3; n_cnt = 1'b1;  end
        `TG_CSR_REG_RX_DROP_MALFORMED: begin n_ram = 1'b1; n_word = W_CNT + 5'd4; n_cnt = 1'b1; end
        `TG_CSR_REG_RX_REFUSED:     begin n_ram = 1'b1; n_word = W_CNT + 5'd5; n_cnt = 1'b1;  end
        `TG_CSR_REG_HOST_ERRORS:    begin n_ram = 1'b1; n_word = W_CNT + 5'd6; n_cnt = 1'b1;  end
        `TG_CSR_REG_RX_STRAY:       begin n_ram = 1'b1; n_word = W_CNT + 5'd7; n_cnt = 1'b1;  end
        `TG_CSR_REG_REQ_ACCEPTED:   begin n_ram = 1'b1; n_word = W_CNT + 5'd8; n_cnt = 1'b1;  end
        `TG_CSR_REG_REQ_REFUSED:    begin n_ram = 1'b1; n_word = W_CNT + 5'd9; n_cnt = 1'b1;  end
        `TG_CSR_REG_REQ_RETRIES:    begin n_ram = 1'b1; n_word = W_CNT + 5'd10; n_cnt = 1'b1; end
        `TG_CSR_REG_ATOMICS:        begin n_ram = 1'b1; n_word = W_CNT + 5'd11; n_cnt = 1'b1; end
        `TG_CSR_REG_PROT_REFUSED:   begin n_ram = 1'b1; n_word = W_CNT + 5'd12; n_cnt = 1'b1; end
        `TG_CSR_REG_RX_DROP_BUSY:   begin n_ram = 1'b1; n_word = W_CNT + 5'd13; n_cnt = 1'b1; end
        `TG_CSR_REG_TS_HOST_REQ:    begin n_ram = 1'b1; n_word = W_TS + 5'd0; n_ts = 1'b1; end
        `TG_CSR_REG_TS_TX_START:    begin n_ram = 1'b1; n_word = W_TS + 5'd1; n_ts = 1'b1; end
        `TG_CSR_REG_TS_RX_END:      begin n_ram = 1'b1; n_word = W_TS + 5'd2; n_ts = 1'b1; end
        `TG_CSR_REG_TS_RX_DONE:     begin n_ram = 1'b1; n_word = W_TS + 5'd3; n_ts = 1'b1; end
        `TG_CSR_REG_TS_HOST_RESP:   begin n_ram = 1'b1; n_word = W_TS + 5'd4; n_ts = 1'b1; end
        `TG_CSR_REG_TS_ENQ_DONE:    begin n_ram = 1'b1; n_word = W_TS + 5'd5; n_ts = 1'b1; end
        // the spill ring's and the link layer's registers and counters read 0
        `TG_CSR_REG_REQ_SPILLED, `TG_CSR_REG_SPILL_BASE, `TG_CSR_REG_SPILL_CFG,
        `TG_CSR_REG_LINK_GONE, `TG_CSR_REG_LINK_RETX, `TG_CSR_REG_LINK_DUP_DROP,
        `TG_CSR_REG_LINK_OOO_DROP, `TG_CSR_REG_LINK_BUSY_DROP, `TG_CSR_REG_LINK_NAKS_SENT,
        `TG_CSR_REG_LINK_ACKS_SENT, `TG_CSR_REG_LINK_PEER_GONE: n_const = 64'd0;
        default:                    n_qt = 1'b1;
    endcase
end

reg        a_ram;                     // the decode an access uses
reg        a_cnt;                     // ... a counter
reg        a_ts;                      // ... a timestamp
reg [4:0]  a_word;
reg [63:0] a_const;
reg        a_node, a_cycles, a_memsz, a_rdto, a_backoff, a_qt;
always @(posedge clk) begin
    a_ram     <= n_ram;
    a_cnt     <= n_cnt;
    a_ts      <= n_ts;
    a_word    <= n_word;
    a_const   <= n_const;
    a_node    <= n_node;
    a_cycles  <= n_cycles;
    a_memsz   <= n_memsz;
    a_rdto    <= n_rdto;
    a_backoff <= n_backoff;
    a_qt      <= n_qt;
end
wire [63:0] a_val = a_const |
                    ({64{a_node}}    & {48'd0, cfg_node_id}) |
                    ({64{a_cycles}}  & cycles_reg) |
                    ({64{a_qt && qt_hit}} & qt_rdata);

wire [3:0] a_cidx = a_word[3:0];              // W_CNT is 16: the counter's index

// the RAM word an access uses: the decoded one, or a context's copy
wire [6:0] acc_word = csr_copy ? {1'b0, csr_copy_idx} + 7'd32 : {2'b00, a_word};
reg        cp_valid;                          // the copy an access names has been written
integer    vi;
always @* begin
    cp_valid = 1'b0;
    for (vi = 0; vi < NCOPY; vi = vi + 1) begin
        if (csr_copy_idx == vi[5:0]) cp_valid = valid_cp_reg[vi];
    end
end
wire       pg_rd    = csr_rd_en && !csr_copy;  // a read of the page's own registers
wire       pg_wr    = csr_wr_en && !csr_copy;

// ---------------------------------------------------------------- picks
// the next counter to update: the first with events at or after rr_reg,
// else the first at all; worked out from this cycle's counts and taken
// from a register in the next (an update's read comes three cycles after
// the last one at the earliest, so its pick was made after the last
// update took its counter's events)
reg        nx_pick;
reg [3:0]  nx_idx;
reg        nx_hi;
reg [3:0]  nx_hi_idx;
integer    ci;
always @* begin
    nx_pick   = 1'b0;
    nx_idx    = 4'd0;
    nx_hi     = 1'b0;
    nx_hi_idx = 4'd0;
    for (ci = NCNT - 1; ci >= 0; ci = ci - 1) begin
        if (pend_reg[ci] != 4'd0) begin
            nx_pick = 1'b1;
            nx_idx  = ci[3:0];
            if (ci[3:0] >= rr_reg) begin
                nx_hi     = 1'b1;
                nx_hi_idx = ci[3:0];
            end
        end
    end
    if (nx_hi) nx_idx = nx_hi_idx;
end

// the next timestamp to write, the first with an event not yet written;
// also from a register (right after a write the pick can name the same
// timestamp once more: written again, it gets the same cycle, its age
// having grown with the counter)
reg        nx_ts_pick;
reg [2:0]  nx_ts_idx;
integer    ti;
always @* begin
    nx_ts_pick = 1'b0;
    nx_ts_idx  = 3'd0;
    for (ti = NTS - 1; ti >= 0; ti = ti - 1) begin
        if (tpend_reg[ti]) begin
            nx_ts_pick = 1'b1;
            nx_ts_idx  = ti[2:0];
        end
    end
end

// both picks, as the RAM ports use them
reg        cnt_pick, ts_pick;
reg [3:0]  cnt_idx;
reg [2:0]  ts_idx;
always @(posedge clk) begin
    cnt_pick <= nx_pick;
    cnt_idx  <= nx_idx;
    ts_pick  <= nx_ts_pick;
    ts_idx   <= nx_ts_idx;
    if (rst) begin
        cnt_pick <= 1'b0;
        ts_pick  <= 1'b0;
    end
end

// ---------------------------------------------------------------- RAM ports
// Read port: the host's read, else a counter update's read. Write port:
// the host's write, else a counter's sum (at most one every third cycle),
// else a timestamp (not in the cycle the host reads a timestamp: the two
// share the subtractor).
wire       host_wr = csr_wr_en && (csr_copy || (a_ram && !a_cnt && !a_ts));   // counters and timestamps ignore writes
wire       host_ts = pg_rd && a_ts;
wire       cnt_rd  = cnt_pick && !csr_rd_en && !upd_reg && !wpend_reg;
wire       upd_go  = wpend_reg && !host_wr;
wire       ts_go   = ts_pick && !host_wr && !upd_go && !host_ts;
// the cycle of a timestamp's event, for its write and for the host's
// read (each its own, so that neither waits on the other's choice): the
// cycle counter less the event's age (under 32), worked out on the
// counter's low 5 bits, the upper ones less one kept beside the counter,
// so that no 64-bit subtraction follows the choice of timestamp
function [63:0] ts_at;
    input [4:0] age;
    reg   [5:0] lo;
    begin
        lo    = {1'b0, cycles_reg[4:0]} - {1'b0, age};
        ts_at = {lo[5] ? cyc_hi_m1_reg : cycles_reg[63:5], lo[4:0]};
    end
endfunction
// the timestamps' next state, and the one an access will read, picked
// with the decode in the cycle before it
reg [NTS-1:0] tpend_nx;
reg [4:0]  tage_nx [0:NTS-1];
integer    tj;
always @* begin
    for (tj = 0; tj < NTS; tj = tj + 1) begin
        if (ts_ev[tj]) begin
            tpend_nx[tj] = 1'b1;
            tage_nx[tj]  = 5'd1;
        end else begin
            tpend_nx[tj] = tpend_reg[tj] && !(ts_go && ts_idx == tj[2:0]);
            tage_nx[tj]  = tage_reg[tj] + {4'd0, tpend_reg[tj]};
        end
    end
end
reg        a_tpend;                   // the accessed timestamp's event is not yet written ...
reg [4:0]  a_tage;                    // ... and its age
always @(posedge clk) begin
    a_tpend <= tpend_nx[n_word[2:0]];
    a_tage  <= tage_nx[n_word[2:0]];
end
wire [63:0] ts_val    = ts_at(tage_reg[ts_idx]);   // the timestamp the write port takes
wire [63:0] ts_rd_val = ts_at(a_tage);             // the one the host reads

wire [CNT_W-1:0] upd_old = valid_reg[{W_CNT[4], upd_idx_reg}] ? ram_q[CNT_W-1:0] : {CNT_W{1'b0}};

reg        wr_en;
reg [6:0]  wr_word;
reg [63:0] wr_data;
always @* begin
    wr_en   = 1'b0;
    wr_word = acc_word;
    wr_data = csr_wdata;
    if (host_wr) begin
        wr_en = 1'b1;
        // LINK_CFG keeps its writable fields, as tg_csr does
        if (!csr_copy && a_word == W_LCFG) wr_data = {32'd0, csr_wdata[31:8], 7'd0, csr_wdata[0]};
        if (!csr_copy && (a_word == W_LRTO || a_word == W_LWAIT || a_word == W_MEMSZ || a_word == W_RDTO ||
                          a_word == W_BOFF)) wr_data = {32'd0, csr_wdata[31:0]};
    end else if (upd_go) begin
        wr_en   = 1'b1;
        wr_word = {2'd0, W_CNT[4], widx_reg};
        wr_data = 64'd0;
        wr_data[CNT_W-1:0] = wval_reg;
    end else if (ts_go) begin
        wr_en   = 1'b1;
        wr_word = {2'd0, W_TS[4:3], ts_idx};
        wr_data = ts_val;
    end
end

wire [6:0] rd_word = csr_rd_en ? acc_word : {2'd0, W_CNT[4], cnt_idx};

always @(posedge clk) begin
    if (wr_en) ram[wr_word] <= wr_data;
    if (csr_rd_en || cnt_rd) ram_q <= ram[rd_word];
end

// events a counter has that its RAM word does not: waiting, read for an
// update, or summed and waiting for the write port (a RAM read in the
// cycle of that write still gets the old word)
wire [5:0] a_add = {2'd0, pend_reg[a_cidx]} +
                   ((upd_reg && upd_idx_reg == a_cidx) ? {2'd0, upd_add_reg} : 6'd0) +
                   ((wpend_reg && widx_reg == a_cidx) ? {2'd0, wadd_reg} : 6'd0);

wire [63:0] rd_word_val = rd_valid_word_reg ? ram_q : rd_val_reg;
reg  [63:0] rd_cnt_val;
always @* begin
    rd_cnt_val = 64'd0;
    rd_cnt_val[CNT_W-1:0] = rd_word_val[CNT_W-1:0] + {{(CNT_W-6){1'b0}}, rd_add_reg};
end
assign csr_rdata = !rd_ram_reg ? rd_val_reg : rd_cnt_reg ? rd_cnt_val : rd_word_val;

// ---------------------------------------------------------------- next state
integer si;
always @(posedge clk) begin
    cyc_lo_reg      <= cyc_lo_reg + 1'b1;
    cyc_lo_ones_reg <= (cyc_lo_reg == {{(CYC_LO_W-1){1'b1}}, 1'b0});
    if (cyc_lo_ones_reg) begin
        cyc_mid_reg      <= cyc_mid_reg + 1'b1;
`ifdef TG_TESTBUG_015
        cyc_mid_ones_reg <= (cyc_mid_reg == {CYC_MID_W{1'b1}});   // deliberate bug: the flag a count late
`else
        cyc_mid_ones_reg <= (cyc_mid_reg == {{(CYC_MID_W-1){1'b1}}, 1'b0});
`endif
        if (cyc_mid_ones_reg) begin
            cyc_top_reg <= cyc_top_reg + 1'b1;
        end
    end
    if (cycles_reg[4:0] == 5'd31) cyc_hi_m1_reg <= cycles_reg[63:5];
    if (pg_wr) begin
        if (a_memsz)   mem_size_reg <= csr_wdata[31:0];
        if (a_rdto)    rdto_reg     <= csr_wdata[31:0];
        if (a_backoff) backoff_reg  <= csr_wdata[31:0];
    end
    if (wr_en && !(host_wr && csr_copy)) valid_reg[wr_word[4:0]] <= 1'b1;
    for (si = 0; si < NCOPY; si = si + 1) begin
        if (host_wr && csr_copy && csr_copy_idx == si[5:0]) valid_cp_reg[si] <= 1'b1;
    end

    // the read: a timestamp with its event not yet written reads that
    // event's cycle
    if (csr_rd_en) begin
        rd_ram_reg        <= csr_copy || (a_ram && !(a_ts && a_tpend));
        rd_valid_word_reg <= csr_copy ? cp_valid : valid_reg[a_word];   // as before a write in this cycle
        rd_val_reg        <= csr_copy ? 64'd0 : (a_ts && a_tpend) ? ts_rd_val : a_val;
        rd_cnt_reg        <= a_cnt && !csr_copy;
        rd_add_reg        <= a_add;
    end

    // counters: events in; an update takes a counter's events with its
    // word, adds them a cycle later and waits for the write port
    for (si = 0; si < NCNT; si = si + 1) begin
        pend_reg[si] <= pend_reg[si] + {3'd0, cnt_ev[si]} -
                        ((cnt_rd && cnt_idx == si[3:0]) ? pend_reg[si] : 4'd0);
    end
    upd_reg <= cnt_rd;
    if (cnt_rd) begin
        upd_idx_reg <= cnt_idx;
        upd_add_reg <= pend_reg[cnt_idx];
        rr_reg      <= (cnt_idx == NCNT - 1) ? 4'd0 : cnt_idx + 4'd1;
    end
    if (upd_reg) begin
        wpend_reg <= 1'b1;
        widx_reg  <= upd_idx_reg;
        wadd_reg  <= upd_add_reg;
        wval_reg  <= upd_old + {{(CNT_W-4){1'b0}}, upd_add_reg};
    end else if (upd_go) begin
        wpend_reg <= 1'b0;
    end

    // timestamps: the newest event of each, and its age
    tpend_reg <= tpend_nx;
    for (si = 0; si < NTS; si = si + 1) begin
        tage_reg[si] <= tage_nx[si];
    end

    if (rst) begin
        cyc_lo_reg       <= {CYC_LO_W{1'b0}};
        cyc_mid_reg      <= {CYC_MID_W{1'b0}};
        cyc_top_reg      <= {CYC_TOP_W{1'b0}};
        cyc_lo_ones_reg  <= 1'b0;
        cyc_mid_ones_reg <= 1'b0;
        cyc_hi_m1_reg <= {59{1'b1}};
        mem_size_reg <= 32'd0;
        rdto_reg     <= `TG_READ_TIMEOUT_RESET;
        backoff_reg  <= `TG_REQ_BACKOFF_RESET;
        valid_reg    <= 32'd0;
        valid_cp_reg <= {NCOPY{1'b0}};
        rr_reg       <= 4'd0;
        upd_reg      <= 1'b0;
        wpend_reg    <= 1'b0;
        tpend_reg    <= {NTS{1'b0}};
        rd_ram_reg   <= 1'b0;
        rd_val_reg   <= 64'd0;
        for (si = 0; si < NCNT; si = si + 1) begin
            pend_reg[si] <= 4'd0;
        end
    end
end

`ifdef FORMAL
// ---------------------------------------------------------------- properties
// Contract: the cycle counter, kept in three parts with their carries
// registered a cycle ahead, counts one a cycle from reset, as one 64-bit
// counter would (C1); its flags name exactly the parts that are all ones
// (C2, the invariant that makes C1 inductive).
reg        f_past_valid = 1'b0;
reg [63:0] f_cycles;              // the counter a cycle ago
reg        f_rst;                 // reset a cycle ago
always @(posedge clk) begin
    f_past_valid <= 1'b1;
    f_cycles     <= cycles_reg;
    f_rst        <= rst;
end

always @* begin
    if (!f_past_valid) begin
        assume(rst);
    end
    if (f_past_valid && !rst) begin
        // C1
        if (!f_rst) begin
            assert(cycles_reg == f_cycles + 64'd1);
        end else begin
            assert(cycles_reg == 64'd0);
        end
        // C2
        assert(cyc_lo_ones_reg == (cyc_lo_reg == {CYC_LO_W{1'b1}}));
        assert(cyc_mid_ones_reg == (cyc_mid_reg == {CYC_MID_W{1'b1}}));
    end
end
`endif

endmodule

`default_nettype wire
