// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Sender side of remote enqueue: keeps every REQ until its target answers,
// and sends refused REQs again, in their original order, after a backoff;
// other requests pass straight through.  Recovery is per queue (target
// node and queue address): REQs to other queues keep going out meanwhile.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_req_tx #(
    parameter MAX_REQS   = 4,  // REQs awaiting an answer (1..16)
    parameter PAY_SLOT_W = 5   // payload-buffer slot number bits
) (
    input  wire         clk,
    input  wire         rst,

    input  wire [31:0]  cfg_backoff,     // cycles between a refusal round and the resend
    input  wire [31:0]  cfg_timeout,     // cycles a REQ waits for its answer (0: forever)

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
    input  wire [63:0]  s_txd_key,
    input  wire [15:0]  s_txd_tag,
    input  wire [1:0]   s_txd_pay_src,
    input  wire [PAY_SLOT_W-1:0] s_txd_pay_slot,

    // requests to the transmitter
    output reg          m_txd_valid,
    input  wire         m_txd_ready,
    output reg  [7:0]   m_txd_op,
    output reg  [7:0]   m_txd_flags,
    output reg  [15:0]  m_txd_dst,
    output reg  [31:0]  m_txd_addr,
    output reg  [5:0]   m_txd_off,
    output reg  [6:0]   m_txd_cnt,
    output reg  [7:0]   m_txd_len,
    output reg  [7:0]   m_txd_ctx,
    output reg  [63:0]  m_txd_key,
    output reg  [15:0]  m_txd_tag,
    output reg  [1:0]   m_txd_pay_src,
    output reg  [PAY_SLOT_W-1:0] m_txd_pay_slot,

    // payload slots: a REQ's slot has a REQ hold (taken by its writer)
    // until its answer or failure, released here; a resend adds the wire
    // hold again, once the last send's wire hold is gone
    input  wire [(1<<PAY_SLOT_W)-1:0] in_req_wire_held,    // wire holds of the request buffer
    input  wire [(1<<PAY_SLOT_W)-1:0] in_spill_wire_held,  // ... and of the spill buffer
    output reg          m_pay_hold_valid,
    output reg  [1:0]   m_pay_hold_src,
    output reg  [PAY_SLOT_W-1:0] m_pay_hold_slot,
    output reg          m_pay_rel_valid,
    output reg  [1:0]   m_pay_rel_src,
    output reg  [PAY_SLOT_W-1:0] m_pay_rel_slot,

    // answers to REQs (REQ_RESP frames)
    input  wire         s_qresp_valid,
    input  wire [15:0]  s_qresp_src,
    input  wire [15:0]  s_qresp_tag,
    input  wire [7:0]   s_qresp_status,

    // a REQ finished for good (answered, refused for good, or given up),
    // reported from registers the cycle after: its context, the tag it
    // came in with (its number in the context's sequence of REQs), and its
    // outcome (TG_ST_OK, or why it failed)
    output wire         m_done_valid,
    output wire [3:0]   m_done_ctx,
    output wire [15:0]  m_done_tag,
    output wire [7:0]   m_done_status,

    output wire         st_slot_free,    // a new REQ would find a free slot
    output wire         st_idle,         // every slot free, nothing on offer or waited for

    output reg          ev_req_retry,
    output reg          ev_req_stray
);

initial begin
    if (MAX_REQS < 1 || MAX_REQS > 16) begin
        $error("%m: MAX_REQS must be in 1..16");
    end
end

localparam [1:0] E_FREE = 2'd0, E_SENT = 2'd1, E_REFUSED = 2'd2;
// row address of the slots' memories
localparam SW = (MAX_REQS > 1) ? $clog2(MAX_REQS) : 1;
localparam M  = MAX_REQS;
localparam NN = MAX_REQS * MAX_REQS;   // bits of a slot-by-slot relation

// ---------------------------------------------------------------- state
// What the slots' bookkeeping reads every cycle (state, generation,
// deadline, and the queue, which a new REQ compares with every slot's) is in
// registers; what only a resend or an error reads (bytes, length,
// context, key, payload slot) is in memories. Both
// are arrays of MAX_REQS rows written by index: a slot's state through
// two ports (a) a REQ kept or resent, (b) its answer or its timeout, the
// rest when a REQ is kept (at keep_idx); the deadlines as below.
// Two relations between slots, bit i*M+j for slots i and j, stand for
// comparisons of the slots' fields: older (i was kept before j) for their
// order, sameq (i and j name the same queue: target node and address).
// A REQ kept in slot k rewrites row and column k, from one comparison of
// its queue with each slot's; nothing else changes them.
reg [1:0]   st_reg    [0:MAX_REQS-1];
reg [NN-1:0] older_reg, older_next;
reg [NN-1:0] sameq_reg, sameq_next;
reg [7:0]   gen_reg   [0:MAX_REQS-1];   // tag generation: a late answer to an older REQ in the slot never matches
reg [15:0]  dst_reg   [0:MAX_REQS-1];
reg [31:0]  addr_reg  [0:MAX_REQS-1];
reg         sta_we;                     // port a: a REQ kept or resent
reg [SW-1:0] sta_idx;
reg [1:0]   sta_val;
reg         stb_we;                     // port b: answered or timed out
reg         stb_gen;                    // ... for good: the next generation
reg [SW-1:0] stb_idx;
reg [1:0]   stb_val;
reg [5:0]   off_mem   [0:MAX_REQS-1];
reg [6:0]   cnt_mem   [0:MAX_REQS-1];
reg [7:0]   len_mem   [0:MAX_REQS-1];
reg [7:0]   ctx_mem   [0:MAX_REQS-1];
reg [15:0]  tag_mem   [0:MAX_REQS-1];   // the tag it came in with
reg [63:0]  key_mem   [0:MAX_REQS-1];
reg [1:0]   psrc_mem  [0:MAX_REQS-1];   // payload buffer and slot
reg [PAY_SLOT_W-1:0] pslot_mem [0:MAX_REQS-1];
// a REQ kept back unsent still has the wire hold its writer took; its
// first send keeps it instead of adding one
reg [15:0]  ownw_reg, ownw_next;
// Timeouts (tg_timeout): a slot waits from the cycle after its REQ is sent
// or resent until its state changes; cfg_timeout is taken when it goes out
wire [MAX_REQS-1:0] waiting, overdue;

reg [15:0]  resent_reg,  resent_next;     // entries already sent again in this round
reg [15:0]  phase_reg,   phase_next;      // entries still to resend in this round
reg [31:0]  wait_reg,    wait_next;       // backoff cycles waited
reg         lock_reg,    lock_next;       // an offer is on the output, not yet taken
reg         lock_rs_reg, lock_rs_next;    // ... and it is a resend
reg [3:0]   lock_idx_reg, lock_idx_next;
reg         flags_lock_reg, flags_lock_next;
reg         done_valid_reg, done_valid_next;  // the end report (m_done_*)
reg [3:0]   done_ctx_reg,   done_ctx_next;
reg [15:0]  done_tag_reg,   done_tag_next;
reg [7:0]   done_st_reg,    done_st_next;

assign m_done_valid  = done_valid_reg;
assign m_done_ctx    = done_ctx_reg;
assign m_done_tag    = done_tag_reg;
assign m_done_status = done_st_reg;

// ---------------------------------------------------------------- bookkeeping
reg         free_found;
reg [3:0]   free_idx;
reg [M-1:0] sent_vec;      // slots whose REQ awaits an answer
reg [M-1:0] refused_vec;   // slots whose REQ was refused
reg [M-1:0] match_new;     // slots holding the waiting request's queue
integer     e;
integer     o;

always @* begin
    free_found = 1'b0;
    free_idx   = 4'd0;
    for (e = MAX_REQS - 1; e >= 0; e = e - 1) begin
        if (st_reg[e] == E_FREE) begin
            free_found = 1'b1;
            free_idx   = e[3:0];
        end
    end
    for (e = 0; e < MAX_REQS; e = e + 1) begin
        sent_vec[e]    = (st_reg[e] == E_SENT);
        refused_vec[e] = (st_reg[e] == E_REFUSED);
        match_new[e]   = (dst_reg[e] == s_txd_dst) && (addr_reg[e] == s_txd_addr);
    end
end

// the oldest entry of this round goes first: the one no other entry of
// the round is older than
reg         pick_found;
reg [3:0]   pick_idx;
reg [M-1:0] pick_older;    // entries of the round older than entry e
always @* begin
    pick_found = 1'b0;
    pick_idx   = 4'd0;
    for (e = MAX_REQS - 1; e >= 0; e = e - 1) begin
        for (o = 0; o < MAX_REQS; o = o + 1) begin
            pick_older[o] = phase_reg[o] && older_reg[o*M + e];
        end
        if (phase_reg[e] && pick_older == {M{1'b0}}) begin
            pick_found = 1'b1;
            pick_idx   = e[3:0];
        end
    end
end

// a resend opens its queue at the target again only if it is the first
// one to that queue in this round
reg pick_first;
always @* begin
    pick_first = 1'b1;
    for (e = 0; e < MAX_REQS; e = e + 1) begin
        if (resent_reg[e] && sameq_reg[pick_idx[SW-1:0]*M + e]) begin
            pick_first = 1'b0;
        end
    end
end

// Per queue: a refused REQ joins the next round only once no REQ to its
// queue awaits an answer (a late refusal must not follow a retry that
// reopened the queue), and a new REQ to a queue with refused REQs is kept
// back behind them.
reg [15:0] eligible;
reg        new_held;
always @* begin
    eligible = 16'd0;
    for (e = 0; e < MAX_REQS; e = e + 1) begin
        eligible[e] = refused_vec[e];
        for (o = 0; o < MAX_REQS; o = o + 1) begin
            if (sent_vec[o] && sameq_reg[e*M + o]) begin
                eligible[e] = 1'b0;
            end
        end
    end
    new_held = (match_new & (refused_vec | phase_reg[M-1:0])) != {M{1'b0}};
end

// the lowest-numbered REQ whose answer is overdue
reg       to_found;
/* verilator lint_off UNUSEDSIGNAL */ // bits past SW: a slot number below MAX_REQS
reg [3:0] to_idx;
/* verilator lint_on UNUSEDSIGNAL */
always @* begin
    to_found = 1'b0;
    to_idx   = 4'd0;
    for (e = MAX_REQS - 1; e >= 0; e = e - 1) begin
        if (st_reg[e] == E_SENT && overdue[e] &&
            !(lock_reg && lock_rs_reg && lock_idx_reg == e[3:0])) begin
            to_found = 1'b1;
            to_idx   = e[3:0];
        end
    end
end

wire is_req     = (s_txd_op == `TG_OP_REQ);
assign st_slot_free = free_found;
assign st_idle      = (sent_vec == {M{1'b0}}) && (refused_vec == {M{1'b0}}) && !lock_reg &&
                      (phase_reg == 16'd0) && (wait_reg == 32'd0) && !done_valid_reg;

// ---------------------------------------------------------------- output selection
reg       use_rs;     // output a resend this cycle
reg [3:0] rs_idx;

// the wire hold of entry e's payload slot is still there (its last send
// is not done with it)
function wire_held;
    input [SW-1:0] row;
    reg [1:0]            src;
    reg [PAY_SLOT_W-1:0] slot;
    begin
        src  = psrc_mem[row];
        slot = pslot_mem[row];
        wire_held = (src == `TG_PAY_REQ)   ? in_req_wire_held[slot] :
                    (src == `TG_PAY_SPILL) ? in_spill_wire_held[slot] : 1'b0;
    end
endfunction
// a resend waits until its slot's last send is done with it
wire pick_ready = pick_found && (ownw_reg[pick_idx] || !wire_held(pick_idx[SW-1:0]));

reg       out_valid_c, in_ready_c;   // m_txd_valid and s_txd_ready, as they are worked out

always @* begin
    if (lock_reg) begin
        use_rs = lock_rs_reg;
        rs_idx = lock_idx_reg;
    end else begin
        use_rs = pick_ready;
        rs_idx = pick_idx;
    end

    out_valid_c   = 1'b0;
    in_ready_c    = 1'b0;
    m_txd_op      = s_txd_op;
    m_txd_flags   = 8'd0;
    m_txd_dst     = s_txd_dst;
    m_txd_addr    = s_txd_addr;
    m_txd_off     = s_txd_off;
    m_txd_cnt     = s_txd_cnt;
    m_txd_len     = s_txd_len;
    m_txd_ctx     = s_txd_ctx;
    m_txd_key     = s_txd_key;
    m_txd_tag     = is_req ? (`TG_TAG_REQ | {4'd0, gen_reg[lock_reg ? lock_idx_reg[SW-1:0] : free_idx[SW-1:0]], 4'd0} |
                              {12'd0, (lock_reg ? lock_idx_reg : free_idx)}) : s_txd_tag;
    m_txd_pay_src  = s_txd_pay_src;
    m_txd_pay_slot = s_txd_pay_slot;

    if (use_rs) begin
        out_valid_c   = 1'b1;
        m_txd_op      = `TG_OP_REQ;
        // the RETRY flag of a resend is fixed when it is first offered
        m_txd_flags   = (lock_reg ? flags_lock_reg : pick_first) ? `TG_FLAG_RETRY : 8'd0;
        m_txd_dst     = dst_reg[rs_idx[SW-1:0]];
        m_txd_addr    = addr_reg[rs_idx[SW-1:0]];
        m_txd_off     = off_mem[rs_idx[SW-1:0]];
        m_txd_cnt     = cnt_mem[rs_idx[SW-1:0]];
        m_txd_len     = len_mem[rs_idx[SW-1:0]];
        m_txd_ctx     = ctx_mem[rs_idx[SW-1:0]];
        m_txd_key     = key_mem[rs_idx[SW-1:0]];
        m_txd_tag     = `TG_TAG_REQ | {4'd0, gen_reg[rs_idx[SW-1:0]], 4'd0} | {12'd0, rs_idx};
        m_txd_pay_src  = psrc_mem[rs_idx[SW-1:0]];
        m_txd_pay_slot = pslot_mem[rs_idx[SW-1:0]];
    end else if (s_txd_valid && (!is_req || lock_reg || (!new_held && free_found))) begin
        out_valid_c = 1'b1;
        in_ready_c  = m_txd_ready;
    end else if (s_txd_valid && is_req && new_held && free_found) begin
        // refusals to its queue are being resolved: keep the new REQ,
        // unsent, behind the refused ones; it goes out in order with them
        in_ready_c  = 1'b1;
    end
    // the handshake flags are assigned once: a flag set to a default and
    // then changed would pulse in an event-driven simulator, and the
    // sender's logic, which reads s_txd_ready, would run again for nothing
    m_txd_valid = out_valid_c;
    s_txd_ready = in_ready_c;
end


// ---------------------------------------------------------------- next state
// the slot a REQ is kept in this cycle: a new REQ that goes out, or one
// parked during recovery (never both in one cycle)
wire       keep_sent   = m_txd_valid && m_txd_ready && !use_rs && is_req;
wire       keep_parked = s_txd_valid && s_txd_ready && !m_txd_valid;
wire [SW-1:0] keep_idx = keep_sent ? lock_idx_next[SW-1:0] : free_idx[SW-1:0];

wire [3:0] resp_idx   = s_qresp_tag[3:0];
wire [3:0] resp_ctx   = ctx_mem[resp_idx[SW-1:0]][3:0];
wire [3:0] to_ctx     = ctx_mem[to_idx[SW-1:0]][3:0];
wire [15:0] resp_tag_in = tag_mem[resp_idx[SW-1:0]];
wire [15:0] to_tag_in   = tag_mem[to_idx[SW-1:0]];
wire       resp_match = s_qresp_valid && ((s_qresp_tag & `TG_TAG_REQ) != 16'd0) &&
                        ({1'b0, resp_idx} < MAX_REQS[4:0]) &&
                        (st_reg[resp_idx[SW-1:0]] == E_SENT) && (dst_reg[resp_idx[SW-1:0]] == s_qresp_src) &&
                        (s_qresp_tag[13:12] == 2'd0) && (s_qresp_tag[11:4] == gen_reg[resp_idx[SW-1:0]]);

always @* begin
    resent_next     = resent_reg;
    phase_next      = phase_reg;
    wait_next       = wait_reg;
    lock_next       = m_txd_valid && !m_txd_ready;
    lock_rs_next    = use_rs;
    lock_idx_next   = use_rs ? rs_idx : (lock_reg ? lock_idx_reg : free_idx);
    flags_lock_next = lock_reg ? flags_lock_reg : (m_txd_flags != 8'd0);
    done_valid_next = 1'b0;
    done_ctx_next   = resp_ctx;
    done_tag_next   = resp_tag_in;
    done_st_next    = s_qresp_status;
    ev_req_retry    = 1'b0;
    ev_req_stray    = 1'b0;
    ownw_next       = ownw_reg;
    m_pay_hold_valid = 1'b0;
    m_pay_hold_src   = psrc_mem[rs_idx[SW-1:0]];
    m_pay_hold_slot  = pslot_mem[rs_idx[SW-1:0]];
    m_pay_rel_valid  = 1'b0;
    m_pay_rel_src    = psrc_mem[resp_idx[SW-1:0]];
    m_pay_rel_slot   = pslot_mem[resp_idx[SW-1:0]];
    sta_we          = 1'b0;
    sta_idx         = lock_idx_next[SW-1:0];
    sta_val         = E_SENT;
    stb_we          = 1'b0;
    stb_gen         = 1'b0;
    stb_idx         = resp_idx[SW-1:0];
    stb_val         = E_FREE;

    // a new REQ goes out: keep it
    if (keep_sent) begin
        sta_we  = 1'b1;
        resent_next[lock_idx_next] = 1'b0;
        ownw_next[lock_idx_next]   = 1'b0;
    end
    // a new REQ parked during recovery
    if (keep_parked) begin
        sta_we  = 1'b1;
        sta_idx = free_idx[SW-1:0];
        sta_val = E_REFUSED;
        resent_next[free_idx] = 1'b0;
        ownw_next[free_idx]   = 1'b1;
    end
    // a refused REQ goes out again
    if (m_txd_valid && m_txd_ready && use_rs) begin
        sta_we  = 1'b1;
        sta_idx = rs_idx[SW-1:0];
        phase_next[rs_idx] = 1'b0;
        resent_next[rs_idx] = 1'b1;
        ev_req_retry = 1'b1;
        // the wire hold again, unless it still has its writer's
        ownw_next[rs_idx] = 1'b0;
        m_pay_hold_valid  = !ownw_reg[rs_idx] && (psrc_mem[rs_idx[SW-1:0]] != `TG_PAY_NONE);
    end

    // the target answered
    if (s_qresp_valid) begin
        if (!resp_match) begin
            ev_req_stray = 1'b1;
        end else if (s_qresp_status == `TG_ST_NOT_READY) begin
            stb_we  = 1'b1;
            stb_val = E_REFUSED;
        end else begin
            stb_we  = 1'b1;
            stb_gen = 1'b1;
            m_pay_rel_valid    = (psrc_mem[resp_idx[SW-1:0]] != `TG_PAY_NONE);
            done_valid_next    = 1'b1;
        end
    end else if (to_found) begin
        // no answer in time: give up on one such REQ a cycle
        stb_we  = 1'b1;
        stb_gen = 1'b1;
        stb_idx = to_idx[SW-1:0];
        m_pay_rel_valid  = (psrc_mem[to_idx[SW-1:0]] != `TG_PAY_NONE);
        m_pay_rel_src    = psrc_mem[to_idx[SW-1:0]];
        m_pay_rel_slot   = pslot_mem[to_idx[SW-1:0]];
        done_valid_next  = 1'b1;
        done_ctx_next    = to_ctx;
        done_tag_next    = to_tag_in;
        done_st_next     = `TG_ST_PEER_GONE;
    end

    // a new round of resends starts once the backoff has passed, with the
    // refused REQs of every queue that has none awaiting an answer; a
    // request still on offer goes out first (the backoff holds meanwhile,
    // so traffic to other queues cannot put the round off for ever)
    if (phase_reg == 16'd0 && eligible != 16'd0) begin
        if (lock_reg && !lock_rs_reg) begin
            wait_next = wait_reg;
        end else if (wait_reg >= cfg_backoff) begin
            wait_next   = 32'd0;
            resent_next = 16'd0;
            phase_next  = eligible;
        end else begin
            wait_next = wait_reg + 32'd1;
        end
    end else begin
        wait_next = 32'd0;
    end

    // slots past MAX_REQS are never used: constant, so synthesis keeps no
    // state or logic for them
    for (e = MAX_REQS; e < 16; e = e + 1) begin
        ownw_next[e] = 1'b0;
    end
end

// the relations: a REQ kept in slot k is younger than every other slot's
// and names the queue it names (row and column k; the diagonal is set)
wire [31:0] keep_row = {{(32-SW){1'b0}}, keep_idx};
always @* begin
    older_next = older_reg;
    sameq_next = sameq_reg;
    if (keep_sent || keep_parked) begin
        for (e = 0; e < MAX_REQS; e = e + 1) begin
            for (o = 0; o < MAX_REQS; o = o + 1) begin
                if (o == keep_row) begin
                    older_next[e*M + o] = (e != o);
                    sameq_next[e*M + o] = match_new[e] || (e == o);
                end
                if (e == keep_row) begin
                    older_next[e*M + o] = 1'b0;
                    sameq_next[e*M + o] = match_new[o] || (e == o);
                end
            end
        end
    end
end

always @(posedge clk) begin
    older_reg      <= older_next;
    sameq_reg      <= sameq_next;
    resent_reg     <= resent_next;
    phase_reg      <= phase_next;
    wait_reg       <= wait_next;
    lock_reg       <= lock_next;
    lock_rs_reg    <= lock_rs_next;
    lock_idx_reg   <= lock_idx_next;
    flags_lock_reg <= flags_lock_next;
    done_valid_reg <= done_valid_next;
    done_ctx_reg   <= done_ctx_next;
    done_tag_reg   <= done_tag_next;
    done_st_reg    <= done_st_next;
    ownw_reg       <= ownw_next;
    if (sta_we) begin
        st_reg[sta_idx] <= sta_val;
    end
    if (stb_we) begin
        st_reg[stb_idx] <= stb_val;
    end
    if (stb_gen) begin
        gen_reg[stb_idx] <= gen_reg[stb_idx] + 8'd1;
    end
    if (rst) begin
        resent_reg  <= 16'd0;
        phase_reg   <= 16'd0;
        wait_reg    <= 32'd0;
        lock_reg    <= 1'b0;
        ownw_reg    <= 16'd0;
        done_valid_reg <= 1'b0;
        for (e = 0; e < MAX_REQS; e = e + 1) begin
            st_reg[e]  <= E_FREE;
            gen_reg[e] <= 8'd0;
        end
    end
end

// each slot's timeout
genvar ga;
generate
    for (ga = 0; ga < MAX_REQS; ga = ga + 1) begin : g_wait
        assign waiting[ga] = st_reg[ga] == E_SENT && !(sta_we && sta_idx == ga);
    end
endgenerate
/* verilator lint_off PINCONNECTEMPTY */ // only the registered verdict is used
tg_timeout #(
    .N (MAX_REQS)
) tg_timeout_inst (
    .clk         (clk),
    .rst         (rst),
    .cfg_timeout (cfg_timeout),
    .in_wait     (waiting),
    .m_over      (overdue),
    .m_over_next ()
);
/* verilator lint_on PINCONNECTEMPTY */

// the slots' memories: the kept REQ's fields, one row a cycle
always @(posedge clk) begin
    if (keep_sent || keep_parked) begin
        dst_reg[keep_idx]  <= s_txd_dst;
        addr_reg[keep_idx] <= s_txd_addr;
        off_mem[keep_idx]  <= s_txd_off;
        cnt_mem[keep_idx]  <= s_txd_cnt;
        len_mem[keep_idx]  <= s_txd_len;
        ctx_mem[keep_idx]  <= s_txd_ctx;
        tag_mem[keep_idx]  <= s_txd_tag;
        key_mem[keep_idx]  <= s_txd_key;
        psrc_mem[keep_idx]  <= s_txd_pay_src;
        pslot_mem[keep_idx] <= s_txd_pay_slot;
    end
end

endmodule

`default_nettype wire
