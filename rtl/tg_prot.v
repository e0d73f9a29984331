// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Region table: the memory regions this node exports, each with a base,
// a length, the rights it grants and a 64-bit key whose low KEY_IDX_BITS
// bits name the entry.  The receive engine looks up the key of every
// incoming request (combinationally) and checks rights and bounds before
// it touches memory.  PROT_CFG turns the check on; its busy bit tells the
// driver when a changed entry is in force for every request the engine
// has started.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_prot #(
    parameter NUM_REGIONS = 32   // table entries (1..REGIONS)
) (
    input  wire        clk,
    input  wire        rst,

    // CSR access (PROT_CFG, RSEL, RBASE, RLEN, RKEY, RCFG)
    input  wire [11:0] csr_addr,
    input  wire        csr_wr_en,
    input  wire [63:0] csr_wdata,
    output reg  [63:0] csr_rdata,
    output wire        csr_hit,        // csr_addr is one of this table's registers

    output wire        cfg_enable,     // requests must name a region with its key

    // lookup by key (combinational)
    input  wire [63:0] lk_key,
    output wire        lk_hit,         // a valid entry holds exactly this key
    output wire [31:0] lk_base,
    output wire [32:0] lk_end,         // first byte past the region
    output wire [3:0]  lk_rights,

    // the receive engine is between requests: every request it starts
    // from now on sees the table as it is
    input  wire        in_rx_idle,

    output wire        st_idle         // no change waits for the engine
);

localparam IDX_W = `TG_KEY_IDX_BITS;
localparam ROWS  = 1 << IDX_W;
// row address of the entries' memories
localparam AW    = (NUM_REGIONS > 1) ? $clog2(NUM_REGIONS) : 1;

initial begin
    if (NUM_REGIONS < 1 || NUM_REGIONS > ROWS) begin
        $error("%m: NUM_REGIONS must be in 1..%0d", ROWS);
    end
end

// ---------------------------------------------------------------- state
// An entry's fields live in memories of NUM_REGIONS rows, written by
// index (one row a cycle, from the CSR port) and read by key (the
// lookup) and by RSEL (CSR reads). Only the valid bits are flip-flops,
// so that a reset invalidates every entry at once; the fields of an
// invalid entry keep what was last written to them.
reg                   enable_reg, enable_next;
reg                   busy_reg,   busy_next;    // a change waits for the engine to be idle
reg [IDX_W-1:0]       sel_reg,    sel_next;
reg [NUM_REGIONS-1:0] valid_reg,  valid_next;
reg [31:0]            base_mem   [0:NUM_REGIONS-1];
reg [32:0]            len_mem    [0:NUM_REGIONS-1];
reg [3:0]             rights_mem [0:NUM_REGIONS-1];
reg [63:0]            key_mem    [0:NUM_REGIONS-1];
// the first byte past each region, computed as RCFG makes the entry valid
// (its base and length hold still while it is valid), so that a lookup
// reads it instead of adding base and length after the key's row is read
reg [32:0]            end_mem    [0:NUM_REGIONS-1];

// ---------------------------------------------------------------- lookup
// A key or RSEL past the last entry names no row: it reads as an
// invalid entry of zeros.
wire [IDX_W-1:0] lk_idx = lk_key[IDX_W-1:0];
wire             lk_ok  = ({1'b0, lk_idx} < NUM_REGIONS[IDX_W:0]);
wire             sel_ok = ({1'b0, sel_reg} < NUM_REGIONS[IDX_W:0]);
wire [AW-1:0]    lk_row  = lk_idx[AW-1:0];
wire [AW-1:0]    sel_row = sel_reg[AW-1:0];

wire        lk_valid      = lk_ok && valid_reg[lk_row];
wire [63:0] lk_row_key    = lk_ok ? key_mem[lk_row]    : 64'd0;
wire [31:0] lk_row_base   = lk_ok ? base_mem[lk_row]   : 32'd0;
wire [32:0] lk_row_end    = lk_ok ? end_mem[lk_row]    : 33'd0;
wire [3:0]  lk_row_rights = lk_ok ? rights_mem[lk_row] : 4'd0;
wire        sel_valid     = sel_ok && valid_reg[sel_row];
wire [63:0] sel_key       = sel_ok ? key_mem[sel_row]    : 64'd0;
wire [31:0] sel_base      = sel_ok ? base_mem[sel_row]   : 32'd0;
wire [32:0] sel_len       = sel_ok ? len_mem[sel_row]    : 33'd0;
wire [3:0]  sel_rights    = sel_ok ? rights_mem[sel_row] : 4'd0;

assign lk_hit    = lk_valid && (lk_row_key == lk_key);
assign lk_base   = lk_row_base;
assign lk_end    = lk_row_end;
assign lk_rights = lk_row_rights;
assign cfg_enable = enable_reg;
assign st_idle    = !busy_reg;

// ---------------------------------------------------------------- CSR
wire is_cfg  = (csr_addr == `TG_CSR_REG_PROT_CFG);
wire is_sel  = (csr_addr == `TG_CSR_REG_RSEL);
wire is_base = (csr_addr == `TG_CSR_REG_RBASE);
wire is_len  = (csr_addr == `TG_CSR_REG_RLEN);
wire is_key  = (csr_addr == `TG_CSR_REG_RKEY);
wire is_rcfg = (csr_addr == `TG_CSR_REG_RCFG);
assign csr_hit = is_cfg || is_sel || is_base || is_len || is_key || is_rcfg;

always @* begin
    csr_rdata = 64'd0;
    if (is_cfg) begin
        csr_rdata = {busy_reg, 62'd0, enable_reg};
    end else if (is_sel) begin
        csr_rdata[IDX_W-1:0] = sel_reg;
    end else if (is_base) begin
        csr_rdata[31:0] = sel_base;
    end else if (is_len) begin
        csr_rdata[32:0] = sel_len;
    end else if (is_key) begin
        csr_rdata = sel_key;
    end else if (is_rcfg) begin
        csr_rdata[8]   = sel_valid;
        csr_rdata[3:0] = sel_rights;
    end
end

// An entry's fields change only while it is invalid, so a lookup never
// sees half of an update; RCFG makes it valid or revokes it. A key that
// names another entry never matches: RCFG refuses to validate it.
wire wr_row    = csr_wr_en && sel_ok;
wire wr_fields = wr_row && !valid_reg[sel_row];
wire wr_base   = wr_fields && is_base;
wire wr_len    = wr_fields && is_len;
wire wr_key    = wr_fields && is_key;
wire wr_rcfg   = wr_row && is_rcfg;

always @* begin
    enable_next = enable_reg;
    sel_next    = sel_reg;
    busy_next   = busy_reg && !in_rx_idle;
    valid_next  = valid_reg;
    if (csr_wr_en && is_cfg) begin
        enable_next = csr_wdata[0];
        busy_next   = 1'b1;
    end
    if (csr_wr_en && is_sel) begin
        sel_next = csr_wdata[IDX_W-1:0];
    end
    if (wr_rcfg) begin
        busy_next           = 1'b1;
        valid_next[sel_row] = csr_wdata[8] && (sel_key[IDX_W-1:0] == sel_reg);
    end
end

always @(posedge clk) begin
    enable_reg <= enable_next;
    busy_reg   <= busy_next;
    sel_reg    <= sel_next;
    valid_reg  <= valid_next;
    if (rst) begin
        enable_reg <= 1'b0;
        busy_reg   <= 1'b0;
        sel_reg    <= {IDX_W{1'b0}};
        valid_reg  <= {NUM_REGIONS{1'b0}};
    end
end

// the memories: one row written a cycle, by index
always @(posedge clk) begin
    if (wr_base) begin
        base_mem[sel_row] <= csr_wdata[31:0];
    end
    if (wr_len) begin
        len_mem[sel_row] <= (csr_wdata[63:32] != 32'd0) ? 33'h100000000 : {1'b0, csr_wdata[31:0]};
    end
    if (wr_key) begin
        key_mem[sel_row] <= csr_wdata;
    end
    if (wr_rcfg) begin
        rights_mem[sel_row] <= csr_wdata[3:0];
        end_mem[sel_row]    <= {1'b0, sel_base} + sel_len;
    end
end

endmodule

`default_nettype wire
