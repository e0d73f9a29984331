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

// row address of the entries' arrays
localparam QW = (NUM_QUEUES > 1) ? $clog2(NUM_QUEUES) : 1;

// ---------------------------------------------------------------- state
// The entries' fields are arrays of NUM_QUEUES rows written by index (the
// driver's CSR writes at QSEL, the enqueue engine's updates at its
// entry): no whole-array copy. The bases stay in registers, since every
// lookup compares all of them; the flag vectors are registers with
// their _next values.
reg [3:0]  sel_reg,     sel_next;
reg [31:0] base_reg    [0:NUM_QUEUES-1];
reg [4:0]  size_reg    [0:NUM_QUEUES-1];
reg [2:0]  esize_reg   [0:NUM_QUEUES-1];
reg [23:0] tail_reg    [0:NUM_QUEUES-1];
reg [23:0] head_reg    [0:NUM_QUEUES-1];
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

// lk_idx names an entry (the loop above finds none past NUM_QUEUES)
wire [QW-1:0] lk_row = lk_idx[QW-1:0];
assign lk_size_log2  = size_reg[lk_row];
assign lk_esize_log2 = esize_reg[lk_row];
assign lk_tail       = tail_reg[lk_row];
assign lk_full       = full_reg[lk_idx];
// The consumer only moves the head forward, towards the tail, so a head
// read earlier is a safe bound: if the next tail is not that head, it is
// not the current head either and the buffer has room.  The driver's
// writes to an entry (it resets buffers when it grows a queue) forget it.
assign lk_head_valid = hv_reg[lk_idx];
assign lk_head       = head_reg[lk_row];

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

// An entry's fields as the CSR reads see them: one read of the tables, at
// the view's index for an address in the view, else at QSEL (the two
// never serve one address); an index past NUM_QUEUES names no entry and
// reads as zeros.
wire          sel_ok  = ({1'b0, sel_reg} < NUM_QUEUES[4:0]);
wire [QW-1:0] sel_row = sel_reg[QW-1:0];
wire [3:0]    rd_idx  = qv_hit ? qv_idx : sel_reg;
wire          rd_ok   = ({1'b0, rd_idx} < NUM_QUEUES[4:0]);
wire [QW-1:0] rd_row  = rd_idx[QW-1:0];
wire [31:0]   rd_base  = rd_ok ? base_reg[rd_row]  : 32'd0;
wire [4:0]    rd_size  = rd_ok ? size_reg[rd_row]  : 5'd0;
wire [2:0]    rd_esize = rd_ok ? esize_reg[rd_row] : 3'd0;
wire [23:0]   rd_tail  = rd_ok ? tail_reg[rd_row]  : 24'd0;
wire [23:0]   rd_head  = rd_ok ? head_reg[rd_row]  : 24'd0;
wire [63:0]   rd_qcfg  = {46'd0, full_reg[rd_idx], en_reg[rd_idx], 5'd0, rd_esize, 3'd0, rd_size};

reg [63:0] qv_rdata;
always @* begin
    case (qv_field)
        `TG_QVIEW_QBASE: qv_rdata = {32'd0, rd_base};
        `TG_QVIEW_QCFG:  qv_rdata = rd_qcfg;
        `TG_QVIEW_QTAIL: qv_rdata = {40'd0, rd_tail};
        `TG_QVIEW_QHEAD: qv_rdata = hv_reg[rd_idx] ? {1'b1, 39'd0, rd_head} : 64'd0;
        default:         qv_rdata = 64'd0;
    endcase
end

always @* begin
    case (csr_addr)
        `TG_CSR_REG_QSEL:       csr_rdata = {48'd0, num_queues, 4'd0, sel_reg};
        `TG_CSR_REG_QBASE:      csr_rdata = {32'd0, rd_base};
        `TG_CSR_REG_QCFG:       csr_rdata = rd_qcfg;
        `TG_CSR_REG_QTAIL:      csr_rdata = {40'd0, rd_tail};
        `TG_CSR_REG_IRQ_STATUS: csr_rdata = {32'd0, irq_st_reg};
        `TG_CSR_REG_IRQ_MASK:   csr_rdata = {32'd0, irq_mask_reg};
        `TG_CSR_REG_QARM:       csr_rdata = {48'd0, arm_reg};
        default:                csr_rdata = qv_hit ? qv_rdata : 64'd0;
    endcase
end

// ---------------------------------------------------------------- next state
wire [15:0] idx_bit = 16'd1 << upd_idx;
wire [15:0] queue_mask = (NUM_QUEUES == 16) ? 16'hFFFF : ((16'd1 << NUM_QUEUES) - 16'd1);

// the rows written this cycle: the engine's at upd_idx, the driver's at
// QSEL (the driver's write goes last: it wins on the same row)
wire          upd_ok    = ({1'b0, upd_idx} < NUM_QUEUES[4:0]);
wire [QW-1:0] upd_row   = upd_idx[QW-1:0];
wire          wr_base   = csr_wr_en && sel_ok && (csr_addr == `TG_CSR_REG_QBASE);
wire          wr_cfg    = csr_wr_en && sel_ok && (csr_addr == `TG_CSR_REG_QCFG);
wire          wr_tail   = csr_wr_en && sel_ok && (csr_addr == `TG_CSR_REG_QTAIL);

always @* begin
    sel_next      = sel_reg;
    en_next       = en_reg;
    full_next     = full_reg;
    hv_next       = hv_reg;
    arm_next      = arm_reg;
    irq_st_next   = irq_st_reg;
    irq_mask_next = irq_mask_reg;

    // the enqueue engine
    if (upd_tail_valid) begin
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
        hv_next = hv_reg | idx_bit;
    end

    // the driver
    if (csr_wr_en) begin
        case (csr_addr)
            `TG_CSR_REG_QSEL: sel_next = csr_wdata[3:0];
            `TG_CSR_REG_QBASE: begin
                hv_next[sel_reg]   = 1'b0;
            end
            `TG_CSR_REG_QCFG: begin
                hv_next[sel_reg]    = 1'b0;
                en_next[sel_reg]    = csr_wdata[16] && sel_ok;
                full_next[sel_reg]  = csr_wdata[17];
            end
            `TG_CSR_REG_QTAIL: begin
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
end

always @(posedge clk) begin
    sel_reg      <= sel_next;
    en_reg       <= en_next;
    full_reg     <= full_next;
    hv_reg       <= hv_next;
    arm_reg      <= arm_next;
    irq_st_reg   <= irq_st_next;
    irq_mask_reg <= irq_mask_next;
    if (rst) begin
        sel_reg      <= 4'd0;
        en_reg       <= 16'd0;
        full_reg     <= 16'd0;
        hv_reg       <= 16'd0;
        arm_reg      <= 16'd0;
        irq_st_reg   <= 32'd0;
        irq_mask_reg <= 32'd0;
    end
end

// the entries' fields, written by index; a reset clears what the driver
// sets (the head is valid only with its flag, which the reset clears)
integer i;
always @(posedge clk) begin
    if (upd_tail_valid && upd_ok) begin
        tail_reg[upd_row] <= upd_tail;
    end
    if (upd_head_valid && upd_ok) begin
        head_reg[upd_row] <= upd_head;
    end
    if (wr_base) begin
        base_reg[sel_row] <= csr_wdata[31:0];
    end
    if (wr_cfg) begin
        size_reg[sel_row]  <= csr_wdata[4:0];
        esize_reg[sel_row] <= csr_wdata[10:8];
    end
    if (wr_tail) begin
        tail_reg[sel_row] <= csr_wdata[23:0];
    end
    if (rst) begin
        for (i = 0; i < NUM_QUEUES; i = i + 1) begin
            base_reg[i]  <= 32'd0;
            size_reg[i]  <= 5'd0;
            esize_reg[i] <= 3'd0;
            tail_reg[i]  <= 24'd0;
        end
    end
end

endmodule

`default_nettype wire
