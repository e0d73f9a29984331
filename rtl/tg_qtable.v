// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Queue table: the receive queues the driver registered (base, buffer and
// entry size, NIC tail, enable/full, the head the NIC last read), looked
// up by base address for each REQ, plus the overflow and notification
// interrupt causes.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_qtable #(
    parameter NUM_QUEUES = 16   // table entries (1..16)
) (
    input  wire        clk,
    input  wire        rst,

    // CSR access (QSEL, QBASE, QCFG, QTAIL, IRQ_STATUS, IRQ_MASK, QARM)
    input  wire [11:0] csr_addr,
    input  wire        csr_wr_en,
    /* verilator lint_off UNUSEDSIGNAL */ // the table's registers are at most 32 bits wide
    input  wire [63:0] csr_wdata,
    /* verilator lint_on UNUSEDSIGNAL */
    output reg  [63:0] csr_rdata,
    output wire        csr_hit,        // csr_addr is one of this table's registers

    // lookup by queue base address (combinational)
    input  wire [31:0] lk_base,
    output reg         lk_hit,         // an enabled entry has this base
    output reg  [3:0]  lk_idx,
    output wire [4:0]  lk_size_log2,
    output wire [2:0]  lk_esize_log2,
    output wire [23:0] lk_tail,
    output wire        lk_full,
    output wire        lk_head_valid,  // lk_head holds a head the NIC read since the driver last set the entry
    output wire [23:0] lk_head,

    // updates from the enqueue engine
    input  wire        upd_tail_valid,  // an entry was appended: new tail
    input  wire [3:0]  upd_idx,
    input  wire [23:0] upd_tail,
    input  wire        upd_full_valid,  // the buffer is full: stop and interrupt
    input  wire        upd_head_valid,  // the head read from the buffer, to remember
    input  wire [23:0] upd_head,

    output wire        irq
);

initial begin
    if (NUM_QUEUES < 1 || NUM_QUEUES > `TG_MAX_QUEUES) begin
        $error("%m: NUM_QUEUES must be in 1..16");
    end
end

// ---------------------------------------------------------------- state
// (arrays span the 4-bit index; entries past NUM_QUEUES stay disabled)
reg [3:0]  sel_reg,     sel_next;
reg [31:0] base_reg    [0:15];
reg [31:0] base_next   [0:15];
reg [4:0]  size_reg    [0:15];
reg [4:0]  size_next   [0:15];
reg [2:0]  esize_reg   [0:15];
reg [2:0]  esize_next  [0:15];
reg [23:0] tail_reg    [0:15];
reg [23:0] tail_next   [0:15];
reg [23:0] head_reg    [0:15];
reg [23:0] head_next   [0:15];
reg [15:0] hv_reg,      hv_next;       // head_reg[i] is valid
reg [15:0] en_reg,      en_next;
reg [15:0] full_reg,    full_next;
reg [15:0] arm_reg,     arm_next;
reg [31:0] irq_st_reg,  irq_st_next;   // [15:0] overflow, [31:16] notify
reg [31:0] irq_mask_reg, irq_mask_next;

assign irq = (irq_st_reg & irq_mask_reg) != 32'd0;

// ---------------------------------------------------------------- lookup
integer q;
always @* begin
    lk_hit = 1'b0;
    lk_idx = 4'd0;
    for (q = NUM_QUEUES - 1; q >= 0; q = q - 1) begin
        if (en_reg[q] && base_reg[q] == lk_base) begin
            lk_hit = 1'b1;
            lk_idx = q[3:0];
        end
    end
end

assign lk_size_log2  = size_reg[lk_idx];
assign lk_esize_log2 = esize_reg[lk_idx];
assign lk_tail       = tail_reg[lk_idx];
assign lk_full       = full_reg[lk_idx];
// The consumer only moves the head forward, towards the tail, so a head
// read earlier is a safe bound: if the next tail is not that head, it is
// not the current head either and the buffer has room.  The driver's
// writes to an entry (it resets buffers when it grows a queue) forget it.
assign lk_head_valid = hv_reg[lk_idx];
assign lk_head       = head_reg[lk_idx];

// ---------------------------------------------------------------- CSR reads
wire [7:0] num_queues = NUM_QUEUES;
// the read-only view: every entry at its own address, so a monitor reads
// the table without moving QSEL under the driver
localparam [11:0] QVIEW_BASE  = `TG_CSR_QVIEW_BASE;
localparam [11:0] QVIEW_BYTES = 16 * `TG_CSR_QVIEW_STRIDE;
wire [11:0] qv_off   = csr_addr - QVIEW_BASE;
wire        qv_hit   = (csr_addr >= QVIEW_BASE) && (qv_off < QVIEW_BYTES);
wire [3:0]  qv_idx   = qv_off[8:5];
wire [4:0]  qv_field = qv_off[4:0];

assign csr_hit = (csr_addr == `TG_CSR_REG_QSEL) || (csr_addr == `TG_CSR_REG_QBASE) ||
                 (csr_addr == `TG_CSR_REG_QCFG) || (csr_addr == `TG_CSR_REG_QTAIL) ||
                 (csr_addr == `TG_CSR_REG_IRQ_STATUS) || (csr_addr == `TG_CSR_REG_IRQ_MASK) ||
                 (csr_addr == `TG_CSR_REG_QARM) || qv_hit;

reg [63:0] qv_rdata;
always @* begin
    case (qv_field)
        `TG_QVIEW_QBASE: qv_rdata = {32'd0, base_reg[qv_idx]};
        `TG_QVIEW_QCFG:  qv_rdata = {46'd0, full_reg[qv_idx], en_reg[qv_idx],
                                     5'd0, esize_reg[qv_idx], 3'd0, size_reg[qv_idx]};
        `TG_QVIEW_QTAIL: qv_rdata = {40'd0, tail_reg[qv_idx]};
        `TG_QVIEW_QHEAD: qv_rdata = hv_reg[qv_idx] ? {1'b1, 39'd0, head_reg[qv_idx]} : 64'd0;
        default:         qv_rdata = 64'd0;
    endcase
end

always @* begin
    case (csr_addr)
        `TG_CSR_REG_QSEL:       csr_rdata = {48'd0, num_queues, 4'd0, sel_reg};
        `TG_CSR_REG_QBASE:      csr_rdata = {32'd0, base_reg[sel_reg]};
        `TG_CSR_REG_QCFG:       csr_rdata = {46'd0, full_reg[sel_reg], en_reg[sel_reg],
                                             5'd0, esize_reg[sel_reg], 3'd0, size_reg[sel_reg]};
        `TG_CSR_REG_QTAIL:      csr_rdata = {40'd0, tail_reg[sel_reg]};
        `TG_CSR_REG_IRQ_STATUS: csr_rdata = {32'd0, irq_st_reg};
        `TG_CSR_REG_IRQ_MASK:   csr_rdata = {32'd0, irq_mask_reg};
        `TG_CSR_REG_QARM:       csr_rdata = {48'd0, arm_reg};
        default:                csr_rdata = qv_hit ? qv_rdata : 64'd0;
    endcase
end

// ---------------------------------------------------------------- next state
wire [15:0] idx_bit = 16'd1 << upd_idx;
wire [15:0] queue_mask = (NUM_QUEUES == 16) ? 16'hFFFF : ((16'd1 << NUM_QUEUES) - 16'd1);
integer i;

always @* begin
    sel_next      = sel_reg;
    en_next       = en_reg;
    full_next     = full_reg;
    hv_next       = hv_reg;
    arm_next      = arm_reg;
    irq_st_next   = irq_st_reg;
    irq_mask_next = irq_mask_reg;
    for (i = 0; i < 16; i = i + 1) begin
        base_next[i]  = base_reg[i];
        size_next[i]  = size_reg[i];
        esize_next[i] = esize_reg[i];
        tail_next[i]  = tail_reg[i];
        head_next[i]  = head_reg[i];
    end

    // the enqueue engine
    if (upd_tail_valid) begin
        tail_next[upd_idx] = upd_tail;
        if (arm_reg[upd_idx]) begin
            arm_next = arm_reg & ~idx_bit;
            irq_st_next[31:16] = irq_st_next[31:16] | idx_bit;
        end
    end
    if (upd_full_valid) begin
        full_next = full_reg | idx_bit;
        irq_st_next[15:0] = irq_st_next[15:0] | idx_bit;
    end
    if (upd_head_valid) begin
        head_next[upd_idx] = upd_head;
        hv_next = hv_reg | idx_bit;
    end

    // the driver
    if (csr_wr_en) begin
        case (csr_addr)
            `TG_CSR_REG_QSEL: sel_next = csr_wdata[3:0];
            `TG_CSR_REG_QBASE: begin
                base_next[sel_reg] = csr_wdata[31:0];
                hv_next[sel_reg]   = 1'b0;
            end
            `TG_CSR_REG_QCFG: begin
                hv_next[sel_reg]    = 1'b0;
                size_next[sel_reg]  = csr_wdata[4:0];
                esize_next[sel_reg] = csr_wdata[10:8];
                en_next[sel_reg]    = csr_wdata[16] && ({1'b0, sel_reg} < NUM_QUEUES[4:0]);
                full_next[sel_reg]  = csr_wdata[17];
            end
            `TG_CSR_REG_QTAIL: begin
                tail_next[sel_reg] = csr_wdata[23:0];
                hv_next[sel_reg]   = 1'b0;
            end
            `TG_CSR_REG_IRQ_STATUS: irq_st_next = irq_st_next & ~csr_wdata[31:0];
            `TG_CSR_REG_IRQ_MASK: irq_mask_next = csr_wdata[31:0];
            `TG_CSR_REG_QARM: arm_next = arm_next | (csr_wdata[15:0] & queue_mask);
            default: ;
        endcase
    end

    // entries past NUM_QUEUES do not exist: constant, so synthesis keeps
    // no state or logic for them
    en_next   = en_next & queue_mask;
    full_next = full_next & queue_mask;
    hv_next   = hv_next & queue_mask;
    for (i = NUM_QUEUES; i < 16; i = i + 1) begin
        base_next[i]  = 32'd0;
        size_next[i]  = 5'd0;
        esize_next[i] = 3'd0;
        tail_next[i]  = 24'd0;
        head_next[i]  = 24'd0;
    end
end

always @(posedge clk) begin
    sel_reg      <= sel_next;
    en_reg       <= en_next;
    full_reg     <= full_next;
    hv_reg       <= hv_next;
    arm_reg      <= arm_next;
    irq_st_reg   <= irq_st_next;
    irq_mask_reg <= irq_mask_next;
    for (i = 0; i < 16; i = i + 1) begin
        base_reg[i]  <= base_next[i];
        size_reg[i]  <= size_next[i];
        esize_reg[i] <= esize_next[i];
        tail_reg[i]  <= tail_next[i];
        head_reg[i]  <= head_next[i];
    end
    if (rst) begin
        sel_reg      <= 4'd0;
        en_reg       <= 16'd0;
        full_reg     <= 16'd0;
        hv_reg       <= 16'd0;
        arm_reg      <= 16'd0;
        irq_st_reg   <= 32'd0;
        irq_mask_reg <= 32'd0;
        for (i = 0; i < 16; i = i + 1) begin
            base_reg[i]  <= 32'd0;
            size_reg[i]  <= 5'd0;
            esize_reg[i] <= 3'd0;
            tail_reg[i]  <= 24'd0;
        end
    end
end

endmodule

`default_nettype wire
