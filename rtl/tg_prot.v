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
    input  wire        in_rx_idle
);

localparam IDX_W = `TG_KEY_IDX_BITS;
localparam ROWS  = 1 << IDX_W;

initial begin
    if (NUM_REGIONS < 1 || NUM_REGIONS > ROWS) begin
        $error("%m: NUM_REGIONS must be in 1..%0d", ROWS);
    end
end

// ---------------------------------------------------------------- state
// (arrays span the index; entries past NUM_REGIONS stay invalid)
reg             enable_reg, enable_next;
reg             busy_reg,   busy_next;    // a change waits for the engine to be idle
reg [IDX_W-1:0] sel_reg,    sel_next;
reg             valid_reg  [0:ROWS-1];
reg             valid_next [0:ROWS-1];
reg [31:0]      base_reg   [0:ROWS-1];
reg [31:0]      base_next  [0:ROWS-1];
reg [32:0]      len_reg    [0:ROWS-1];
reg [32:0]      len_next   [0:ROWS-1];
reg [3:0]       rights_reg [0:ROWS-1];
reg [3:0]       rights_next[0:ROWS-1];
reg [63:0]      key_reg    [0:ROWS-1];
reg [63:0]      key_next   [0:ROWS-1];

// ---------------------------------------------------------------- lookup
// Both reads (by key, by RSEL) select among the NUM_REGIONS rows only.
wire [IDX_W-1:0] lk_idx = lk_key[IDX_W-1:0];
reg              lk_valid;
reg [63:0]       lk_row_key;
reg [31:0]       lk_row_base;
reg [32:0]       lk_row_len;
reg [3:0]        lk_row_rights;
reg              sel_valid;
reg [31:0]       sel_base;
reg [32:0]       sel_len;
reg [3:0]        sel_rights;
reg [63:0]       sel_key;
integer          q;
always @* begin
    lk_valid      = 1'b0;
    lk_row_key    = 64'd0;
    lk_row_base   = 32'd0;
    lk_row_len    = 33'd0;
    lk_row_rights = 4'd0;
    sel_valid     = 1'b0;
    sel_base      = 32'd0;
    sel_len       = 33'd0;
    sel_rights    = 4'd0;
    sel_key       = 64'd0;
    for (q = 0; q < NUM_REGIONS; q = q + 1) begin
        if (lk_idx == q[IDX_W-1:0]) begin
            lk_valid      = valid_reg[q];
            lk_row_key    = key_reg[q];
            lk_row_base   = base_reg[q];
            lk_row_len    = len_reg[q];
            lk_row_rights = rights_reg[q];
        end
        if (sel_reg == q[IDX_W-1:0]) begin
            sel_valid  = valid_reg[q];
            sel_base   = base_reg[q];
            sel_len    = len_reg[q];
            sel_rights = rights_reg[q];
            sel_key    = key_reg[q];
        end
    end
end
assign lk_hit    = lk_valid && (lk_row_key == lk_key);
assign lk_base   = lk_row_base;
assign lk_end    = {1'b0, lk_row_base} + lk_row_len;
assign lk_rights = lk_row_rights;
assign cfg_enable = enable_reg;

// ---------------------------------------------------------------- CSR
wire is_cfg  = (csr_addr == `TG_CSR_REG_PROT_CFG);
wire is_sel  = (csr_addr == `TG_CSR_REG_RSEL);
wire is_base = (csr_addr == `TG_CSR_REG_RBASE);
wire is_len  = (csr_addr == `TG_CSR_REG_RLEN);
wire is_key  = (csr_addr == `TG_CSR_REG_RKEY);
wire is_rcfg = (csr_addr == `TG_CSR_REG_RCFG);
assign csr_hit = is_cfg || is_sel || is_base || is_len || is_key || is_rcfg;

wire sel_ok = ({1'b0, sel_reg} < NUM_REGIONS[IDX_W:0]);

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

integer r;
always @* begin
    enable_next = enable_reg;
    sel_next    = sel_reg;
    busy_next   = busy_reg && !in_rx_idle;
    if (csr_wr_en && is_cfg) begin
        enable_next = csr_wdata[0];
        busy_next   = 1'b1;
    end
    if (csr_wr_en && is_sel) begin
        sel_next = csr_wdata[IDX_W-1:0];
    end
    if (csr_wr_en && is_rcfg && sel_ok) begin
        busy_next = 1'b1;
    end
    for (r = 0; r < ROWS; r = r + 1) begin
        valid_next[r]  = valid_reg[r];
        base_next[r]   = base_reg[r];
        len_next[r]    = len_reg[r];
        rights_next[r] = rights_reg[r];
        key_next[r]    = key_reg[r];
        if (r >= NUM_REGIONS) begin
            // rows past NUM_REGIONS are never used: constant, so
            // synthesis keeps no state or logic for them
            valid_next[r]  = 1'b0;
            base_next[r]   = 32'd0;
            len_next[r]    = 33'd0;
            rights_next[r] = 4'd0;
            key_next[r]    = 64'd0;
        end else if (csr_wr_en && sel_reg == r[IDX_W-1:0]) begin
            // an entry's fields change only while it is invalid, so a
            // lookup never sees half of an update; RCFG makes it valid
            // or revokes it
            if (!valid_reg[r]) begin
                if (is_base) begin
                    base_next[r] = csr_wdata[31:0];
                end
                if (is_len) begin
                    len_next[r] = (csr_wdata[63:32] != 32'd0) ? 33'h100000000 : {1'b0, csr_wdata[31:0]};
                end
                if (is_key) begin
                    key_next[r] = csr_wdata;
                end
            end
            if (is_rcfg) begin
                // a key that names another entry never matches: refuse
                // to validate it
                valid_next[r]  = csr_wdata[8] && (key_reg[r][IDX_W-1:0] == sel_reg);
                rights_next[r] = csr_wdata[3:0];
            end
        end
    end
end

always @(posedge clk) begin
    enable_reg <= enable_next;
    busy_reg   <= busy_next;
    sel_reg    <= sel_next;
    for (r = 0; r < ROWS; r = r + 1) begin
        valid_reg[r]  <= valid_next[r];
        base_reg[r]   <= base_next[r];
        len_reg[r]    <= len_next[r];
        rights_reg[r] <= rights_next[r];
        key_reg[r]    <= key_next[r];
    end
    if (rst) begin
        enable_reg <= 1'b0;
        busy_reg   <= 1'b0;
        sel_reg    <= {IDX_W{1'b0}};
        for (r = 0; r < ROWS; r = r + 1) begin
            valid_reg[r]  <= 1'b0;
            base_reg[r]   <= 32'd0;
            len_reg[r]    <= 33'd0;
            rights_reg[r] <= 4'd0;
            key_reg[r]    <= 64'd0;
        end
    end
end

endmodule

`default_nettype wire
