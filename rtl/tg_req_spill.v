// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// REQ spill ring: when the REQ sender has no free slot, REQ stores are
// accepted anyway and parked, in order, in a ring in this node's host
// memory; they go to the sender again, oldest first, as its slots free
// up.  While the ring holds anything, every new REQ joins it, so REQs
// leave in the order they were stored.  Other requests pass straight
// through.  The host port therefore stalls on REQs only when the ring is
// full (or there is none: SPILL_CFG 0).
`default_nettype none
`include "tg_hw_defs.vh"

module tg_req_spill #(
    parameter PAY_SLOT_W = 5    // payload-buffer slot number bits
) (
    input  wire         clk,
    input  wire         rst,

    // ring configuration (taken over while the ring is empty)
    input  wire [31:0]  cfg_spill_base,
    input  wire [4:0]   cfg_spill_log2,
    output wire [31:0]  st_spill_count,     // entries in the ring

    // requests from the host port
    input  wire         s_txd_valid,
    output reg          s_txd_ready,
    input  wire [7:0]   s_txd_op,
    input  wire [15:0]  s_txd_dst,
    input  wire [31:0]  s_txd_addr,
    input  wire [5:0]   s_txd_off,
    input  wire [6:0]   s_txd_cnt,
    input  wire [7:0]   s_txd_len,
    input  wire [7:0]   s_txd_ctx,
    input  wire [15:0]  s_txd_tag,
    input  wire [63:0]  s_txd_key,
    input  wire [1:0]   s_txd_pay_src,
    input  wire [PAY_SLOT_W-1:0] s_txd_pay_slot,

    // requests to the REQ sender
    output reg          m_txd_valid,
    input  wire         m_txd_ready,
    output reg  [7:0]   m_txd_op,
    output reg  [15:0]  m_txd_dst,
    output reg  [31:0]  m_txd_addr,
    output reg  [5:0]   m_txd_off,
    output reg  [6:0]   m_txd_cnt,
    output reg  [7:0]   m_txd_len,
    output reg  [7:0]   m_txd_ctx,
    output reg  [15:0]  m_txd_tag,
    output reg  [63:0]  m_txd_key,
    output reg  [1:0]   m_txd_pay_src,
    output reg  [PAY_SLOT_W-1:0] m_txd_pay_slot,
    input  wire         in_req_slot_free,   // the REQ sender would take a new REQ

    // a parked REQ's payload: read from the request buffer (the port is
    // shared: a read is done when granted, its word is on s_pay_rd_data a
    // cycle later), and the slot released once the entry is in the ring
    output reg          m_pay_rd_valid,
    input  wire         in_pay_rd_grant,
    output wire [PAY_SLOT_W-1:0] m_pay_rd_slot,
    output wire [2:0]   m_pay_rd_word,
    input  wire [63:0]  s_pay_rd_data,
    output wire         m_pay_rel_valid,    // both holds of m_pay_rd_slot
    // a REQ read back: its payload written into a slot of the spill buffer,
    // taken (wire and REQ holds) when the REQ sender takes the REQ
    input  wire         s_spl_alloc_valid,
    input  wire [PAY_SLOT_W-1:0] s_spl_alloc_slot,
    output wire         m_spl_take_valid,
    output wire [PAY_SLOT_W-1:0] m_spl_take_slot,
    output reg          m_spl_we,
    output wire [PAY_SLOT_W-1:0] m_spl_wr_slot,
    output wire [2:0]   m_spl_wr_word,
    output wire [63:0]  m_spl_wr_data,

    // host memory (the ring)
    output wire         m_mem_req_valid,
    input  wire         m_mem_req_ready,
    output reg          m_mem_req_write,
    output reg  [31:0]  m_mem_req_addr,
    output reg  [63:0]  m_mem_req_wdata,
    output reg  [7:0]   m_mem_req_wstrb,
    input  wire         s_mem_resp_valid,
    input  wire [63:0]  s_mem_resp_rdata,

    output reg          ev_spill,

    output wire         st_idle          // the ring is empty and nothing is parked or read back
);

localparam [2:0] S_IDLE = 3'd0, S_WR = 3'd1, S_WRW = 3'd2, S_RD = 3'd3, S_RDW = 3'd4,
                 S_OFFER = 3'd5;
localparam [3:0] ENTRY_WORDS = 4'd12;        // header, address, bytes, key, 8 payload words
localparam [1:0] PAY_SPILL   = `TG_PAY_SPILL;
localparam       MAX_LOG2 = `TG_SPILL_MAX_LOG2;

// ---------------------------------------------------------------- state
reg [2:0]   state_reg, state_next;
reg [31:0]  base_reg,  base_next;      // ring in force
reg [4:0]   log2_reg,  log2_next;
reg [16:0]  cnt_reg,   cnt_next;       // entries held
reg [15:0]  wr_reg,    wr_next;        // next entry to fill
reg [15:0]  rd_reg,    rd_next;        // oldest entry
reg [3:0]   word_reg,  word_next;      // words issued of the entry in hand
reg [3:0]   rcv_reg,   rcv_next;       // answers received for it
// the entry in hand (being parked, or read back and offered)
reg [15:0]  dst_reg,   dst_next;
reg [31:0]  addr_reg,  addr_next;
reg [5:0]   off_reg,   off_next;
reg [6:0]   cnt7_reg,  cnt7_next;      // (the bytes: cnt7 from off)
reg [7:0]   len_reg,   len_next;
reg [7:0]   ctx_reg,   ctx_next;
reg [15:0]  tag_reg,   tag_next;
reg [63:0]  key_reg,   key_next;
reg [PAY_SLOT_W-1:0] pslot_reg, pslot_next; // request-buffer slot of the REQ being parked
reg [PAY_SLOT_W-1:0] cslot_reg, cslot_next; // spill-buffer slot of the REQ read back
reg         pr_reg,    pr_next;        // a payload word read is answered this cycle
reg         pw_ok_reg, pw_ok_next;     // pw_reg holds the payload word the ring write wants
reg [63:0]  pw_reg,    pw_next;
reg [2:0]   prd_word;                  // payload word read this cycle

// ---------------------------------------------------------------- decode
wire [4:0]  cfg_log2_eff = (cfg_spill_log2 > MAX_LOG2[4:0]) ? MAX_LOG2[4:0] : cfg_spill_log2;
wire        ring_on  = (log2_reg != 5'd0);
wire [16:0] cap      = ring_on ? (17'd1 << log2_reg) : 17'd0;
wire [15:0] idx_mask = ring_on ? (16'hFFFF >> (5'd16 - log2_reg)) : 16'd0;
wire        is_req   = (s_txd_op == `TG_OP_REQ);
// payload words of the entry in hand (1..8)
wire [3:0]  pwords   = (len_reg[7:3] == 5'd0) ? 4'd1 :
                       (len_reg[7:3] > 5'd8)  ? 4'd8 : len_reg[6:3];
wire [3:0]  wwords   = 4'd4 + pwords;
wire [15:0] cur_idx  = ((state_reg == S_WR) ? wr_reg : rd_reg) & idx_mask;
wire [31:0] ent_addr = base_reg + {9'd0, cur_idx, 7'd0};

assign st_spill_count  = {15'd0, cnt_reg};
assign st_idle         = (state_reg == S_IDLE) && (cnt_reg == 17'd0) && !pr_reg && !pw_ok_reg;
// a function of registers alone (the request holds until it is taken): a
// payload word's write waits for the word from the request buffer
assign m_mem_req_valid = (state_reg == S_WR && (word_reg < 4'd4 || pr_reg || pw_ok_reg)) ||
                         (state_reg == S_RD);
wire   mem_accept      = m_mem_req_valid && m_mem_req_ready;
wire [63:0] park_word  = pw_ok_reg ? pw_reg : s_pay_rd_data;

assign m_pay_rd_slot   = pslot_reg;
assign m_pay_rd_word   = prd_word;
assign m_pay_rel_valid = (state_reg == S_WRW) && (state_next == S_IDLE);
assign m_spl_take_valid = (state_reg == S_OFFER) && m_txd_ready;
assign m_spl_take_slot = cslot_reg;
assign m_spl_wr_slot   = cslot_reg;
assign m_spl_wr_word   = pword_of(rcv_reg[2:0]);
assign m_spl_wr_data   = s_mem_resp_rdata;

// payload word held by entry word w (4..11)
function [2:0] pword_of;
    input [2:0] w;
    begin
        pword_of = w - 3'd4;
    end
endfunction

function [63:0] entry_word;
    input [3:0] w;
    input [15:0] dst;
    input [31:0] addr;
    input [5:0] off;
    input [6:0] cnt;
    input [7:0] len;
    input [7:0] ctx;
    input [15:0] tag;
    input [63:0] key;
    input [63:0] data;     // the payload word, for words 4..11
    begin
        case (w)
            4'd0:    entry_word = {dst, ctx, len, tag, 16'd0};
            4'd1:    entry_word = {32'd0, addr};
            4'd2:    entry_word = {49'd0, cnt, 2'd0, off};
            4'd3:    entry_word = key;
            default: entry_word = data;
        endcase
    end
endfunction

// ---------------------------------------------------------------- datapath
reg out_valid_c, in_ready_c;   // m_txd_valid and s_txd_ready, as they are worked out
always @* begin
    state_next = state_reg;
    base_next  = base_reg;
    log2_next  = log2_reg;
    cnt_next   = cnt_reg;
    wr_next    = wr_reg;
    rd_next    = rd_reg;
    word_next  = word_reg;
    rcv_next   = rcv_reg;
    dst_next   = dst_reg;
    addr_next  = addr_reg;
    off_next   = off_reg;
    cnt7_next  = cnt7_reg;
    len_next   = len_reg;
    ctx_next   = ctx_reg;
    tag_next   = tag_reg;
    key_next   = key_reg;
    pslot_next = pslot_reg;
    cslot_next = cslot_reg;
    pr_next    = 1'b0;
    pw_ok_next = pw_ok_reg;
    pw_next    = pw_reg;
    ev_spill   = 1'b0;
    m_spl_we   = 1'b0;

    in_ready_c    = 1'b0;
    out_valid_c   = 1'b0;
    m_txd_op      = s_txd_op;
    m_txd_dst     = s_txd_dst;
    m_txd_addr    = s_txd_addr;
    m_txd_off     = s_txd_off;
    m_txd_cnt     = s_txd_cnt;
    m_txd_len     = s_txd_len;
    m_txd_ctx     = s_txd_ctx;
    m_txd_tag     = s_txd_tag;
    m_txd_key     = s_txd_key;
    m_txd_pay_src  = s_txd_pay_src;
    m_txd_pay_slot = s_txd_pay_slot;

    m_mem_req_write = (state_reg == S_WR);
    m_mem_req_addr  = ent_addr + {24'd0, word_reg, 3'd0};
    m_mem_req_wdata = entry_word(word_reg, dst_reg, addr_reg, off_reg, cnt7_reg, len_reg, ctx_reg,
                                 tag_reg, key_reg, park_word);

    // parking: the payload word the ring write wants next is read from the
    // request buffer (in the cycle the word before it is taken, or as soon
    // as the port is granted); the answer is written at once, or kept
    begin : park_read
        reg [3:0] want;
        want = mem_accept ? word_reg + 4'd1 : word_reg;
        prd_word       = pword_of(want[2:0]);
        m_pay_rd_valid = (state_reg == S_WR) && (want >= 4'd4) && (want < wwords) &&
                         (mem_accept || !(pr_reg || pw_ok_reg));
        pr_next        = m_pay_rd_valid && in_pay_rd_grant;
        if (mem_accept) begin
            pw_ok_next = 1'b0;
        end else if (pr_reg) begin
            pw_ok_next = 1'b1;
            pw_next    = s_pay_rd_data;
        end
    end
    m_mem_req_wstrb = 8'hFF;

    // an answer from memory: count it; read data fills the entry in hand
    if (s_mem_resp_valid) begin
        rcv_next = rcv_reg + 4'd1;
        if (state_reg == S_RD || state_reg == S_RDW) begin
            case (rcv_reg)
                4'd0: begin
                    dst_next = s_mem_resp_rdata[63:48];
                    ctx_next = s_mem_resp_rdata[47:40];
                    len_next = s_mem_resp_rdata[39:32];
                    tag_next = s_mem_resp_rdata[31:16];
                end
                4'd1: addr_next = s_mem_resp_rdata[31:0];
                4'd2: begin
                    off_next  = s_mem_resp_rdata[5:0];
                    cnt7_next = s_mem_resp_rdata[14:8];
                end
                4'd3: key_next  = s_mem_resp_rdata;
                // payload words go to the spill buffer's slot
                default: m_spl_we = 1'b1;
            endcase
        end
    end

    case (state_reg)
        S_IDLE: begin
            word_next = 4'd0;
            rcv_next  = 4'd0;
            if (cnt_reg != 17'd0 && in_req_slot_free && s_spl_alloc_valid) begin
                // the oldest parked REQ goes back to the sender
                state_next = S_RD;
                cslot_next = s_spl_alloc_slot;
            end
        end
        S_WR: begin
            if (mem_accept) begin
                word_next = word_reg + 4'd1;
                if (word_reg == wwords - 4'd1) begin
                    state_next = S_WRW;
                end
            end
        end
        S_WRW: begin
            if (rcv_next == wwords) begin
                state_next = S_IDLE;
            end
        end
        S_RD: begin
            if (m_mem_req_ready) begin
                word_next = word_reg + 4'd1;
                if (word_reg == ENTRY_WORDS - 4'd1) begin
                    state_next = S_RDW;
                end
            end
        end
        S_RDW: begin
            if (rcv_next == ENTRY_WORDS) begin
                state_next = S_OFFER;
            end
        end
        default: begin  // S_OFFER
            out_valid_c   = 1'b1;
            m_txd_op      = `TG_OP_REQ;
            m_txd_dst     = dst_reg;
            m_txd_addr    = addr_reg;
            m_txd_off     = off_reg;
            m_txd_cnt     = cnt7_reg;
            m_txd_len     = len_reg;
            m_txd_ctx     = ctx_reg;
            m_txd_tag     = tag_reg;
            m_txd_key     = key_reg;
            m_txd_pay_src  = PAY_SPILL;
            m_txd_pay_slot = cslot_reg;
            if (m_txd_ready) begin
                cnt_next   = cnt_reg - 17'd1;
                rd_next    = rd_reg + 16'd1;
                state_next = S_IDLE;
            end
        end
    endcase

    // requests from the host port
    if (state_reg != S_OFFER && s_txd_valid) begin
        if (!is_req || (cnt_reg == 17'd0 && (in_req_slot_free || !ring_on))) begin
            // straight through
            out_valid_c = 1'b1;
            in_ready_c  = m_txd_ready;
        end else if (state_reg == S_IDLE && state_next == S_IDLE && cnt_reg != cap) begin
            // park it at the end of the ring
            in_ready_c  = 1'b1;
            ev_spill    = 1'b1;
            dst_next    = s_txd_dst;
            addr_next   = s_txd_addr;
            off_next    = s_txd_off;
            cnt7_next   = s_txd_cnt;
            len_next    = s_txd_len;
            ctx_next    = s_txd_ctx;
            tag_next    = s_txd_tag;
            key_next    = s_txd_key;
            pslot_next  = s_txd_pay_slot;
            cnt_next    = cnt_reg + 17'd1;
            state_next  = S_WR;
        end
    end
    // a new configuration applies while the ring is empty, not in the cycle
    // that parks its first REQ (that one goes into the ring in force), and
    // not while a REQ that finds no free slot is offered (without a ring it
    // waits on m_txd; a ring coming into force would park it and withdraw
    // the offer)
    if (state_reg == S_IDLE && cnt_reg == 17'd0 && cnt_next == 17'd0 &&
        !(s_txd_valid && is_req && !in_req_slot_free)) begin
        base_next = cfg_spill_base;
        log2_next = cfg_log2_eff;
    end
    if (state_reg == S_WRW && state_next == S_IDLE) begin
        wr_next = wr_reg + 16'd1;
    end
    // the handshake flags are assigned once (see tg_req_tx)
    s_txd_ready = in_ready_c;
    m_txd_valid = out_valid_c;
end

always @(posedge clk) begin
    state_reg <= state_next;
    base_reg  <= base_next;
    log2_reg  <= log2_next;
    cnt_reg   <= cnt_next;
    wr_reg    <= wr_next;
    rd_reg    <= rd_next;
    word_reg  <= word_next;
    rcv_reg   <= rcv_next;
    dst_reg   <= dst_next;
    addr_reg  <= addr_next;
    off_reg   <= off_next;
    cnt7_reg  <= cnt7_next;
    len_reg   <= len_next;
    ctx_reg   <= ctx_next;
    tag_reg   <= tag_next;
    key_reg   <= key_next;
    pslot_reg <= pslot_next;
    cslot_reg <= cslot_next;
    pr_reg    <= pr_next;
    pw_ok_reg <= pw_ok_next;
    pw_reg    <= pw_next;
    if (rst) begin
        state_reg <= S_IDLE;
        base_reg  <= 32'd0;
        log2_reg  <= 5'd0;
        cnt_reg   <= 17'd0;
        wr_reg    <= 16'd0;
        rd_reg    <= 16'd0;
        word_reg  <= 4'd0;
        rcv_reg   <= 4'd0;
        pr_reg    <= 1'b0;
        pw_ok_reg <= 1'b0;
    end
end

endmodule

`default_nettype wire
