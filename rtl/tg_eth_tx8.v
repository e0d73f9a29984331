// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Byte-serial frame transmitter: its writer builds a frame's Telegraphos
// header and payload (bytes 14 on) in one of four block-RAM slots and
// hands the slot over with the payload length; the transmitter sends the
// slots in that order, one byte a cycle, adding the Ethernet header (the
// destination MAC from the header's dst field) and the FCS.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_eth_tx8 (
    input  wire        clk,
    input  wire        rst,

    // configuration
    input  wire [15:0] cfg_node_id,

    // frame writer: byte s_wr_off of the slot being filled (offsets 14 to
    // 61 + payload bytes); ignored while no slot is free
    input  wire        s_wr_en,
    input  wire [6:0]  s_wr_off,
    input  wire [7:0]  s_wr_data,

    // hand-over of the slot being filled: ready while one is free; writes
    // in the cycle of the hand-over still go to the slot handed over
    input  wire        s_frm_valid,
    output wire        s_frm_ready,
    input  wire [3:0]  s_frm_words,    // payload words of 8 bytes: 0..8

    // frame bytes out, FCS included
    output wire [7:0]  m_tx_tdata,
    output wire        m_tx_tvalid,
    input  wire        m_tx_tready,
    output wire        m_tx_tlast,

    // events
    output wire        ev_tx_start,    // a frame's first byte was taken
    output wire        ev_tx_frame     // a frame's last byte was taken
);

localparam [7:0]  H       = `TG_HDR_OFF;
localparam [7:0]  OFF_DST = H + `TG_H_DST;
localparam [15:0] ETYPE   = `TG_ETHERTYPE;
localparam [23:0] MAC_OUI = `TG_MAC_OUI;

// A three-stage pipeline moves together while the output is empty or
// taken: the position stage issues the slot read of a byte and tells what
// the byte is, the read stage holds the block RAM's output, the output
// stage holds the byte (or, for an FCS byte, which one). The CRC takes
// each data byte as it leaves, so it is whole when the FCS goes out.
localparam [1:0] K_HDR  = 2'd0;  // Ethernet header byte made here
localparam [1:0] K_SLOT = 2'd1;  // byte from the slot
localparam [1:0] K_FCS  = 2'd2;  // FCS byte

// ---------------------------------------------------------------- state
// slots
reg [1:0]  wslot_reg,  wslot_next;     // slot being filled
reg [1:0]  rslot_reg,  rslot_next;     // slot being sent, or next to send
reg [3:0]  full_reg,   full_next;      // slot handed over, not yet read out
reg [3:0]  plen_reg [0:3];             // payload words of each slot's frame
// position stage
reg [7:0]  pos_reg,    pos_next;       // frame byte whose read goes out
reg        fcs_zone_reg, fcs_zone_next; // ... is an FCS byte
// read stage
reg        v1_reg,     v1_next;
reg [1:0]  kind1_reg,  kind1_next;
reg [3:0]  pos1_reg,   pos1_next;      // header byte or FCS byte index
reg        first1_reg, first1_next;
reg        last1_reg,  last1_next;
// output stage
reg        v2_reg,     v2_next;
reg        fcs2_reg,   fcs2_next;
reg [1:0]  fcsi2_reg,  fcsi2_next;
reg [7:0]  data2_reg,  data2_next;
reg        first2_reg, first2_next;
reg        last2_reg,  last2_next;
reg [31:0] crc_reg,    crc_next;
reg [1:0]  ev_reg,     ev_next;

reg [7:0]  buf_mem [0:511];
reg [7:0]  rd_data_reg;

// ---------------------------------------------------------------- the position stage
wire       adv      = !v2_reg || m_tx_tready;
wire       sending  = full_reg[rslot_reg];

// The slot's last data and last FCS positions, registered: they follow a
// new slot a cycle late, when its position is still in the Ethernet header.
reg  [7:0] data_last_reg;
reg  [7:0] pos_last_reg;
wire [3:0] plen_w = plen_reg[rslot_reg];
always @(posedge clk) begin
    data_last_reg <= {1'b0, plen_w, 3'd0} + 8'd61;
    pos_last_reg  <= {1'b0, plen_w, 3'd0} + 8'd65;
end

// Ethernet header bytes 4 and 5 are the destination node, which the
// slot's header holds at OFF_DST: they are read from there.
reg [6:0] rd_off;
reg [1:0] kind0;
always @* begin
    rd_off = pos_reg[6:0];
    kind0  = K_SLOT;
    if (pos_reg == 8'd4) begin
        rd_off = OFF_DST[6:0];
    end else if (pos_reg == 8'd5) begin
        rd_off = OFF_DST[6:0] + 7'd1;
    end else if (pos_reg < H) begin
        kind0 = K_HDR;
    end else if (fcs_zone_reg) begin
        kind0 = K_FCS;
    end
end

// ---------------------------------------------------------------- the output stage
reg  [7:0]  hdr_byte;
always @* begin
    case (pos1_reg)
        4'd0, 4'd6:  hdr_byte = MAC_OUI[23:16];
        4'd1, 4'd7:  hdr_byte = MAC_OUI[15:8];
        4'd2, 4'd8:  hdr_byte = MAC_OUI[7:0];
        4'd10:       hdr_byte = cfg_node_id[15:8];
        4'd11:       hdr_byte = cfg_node_id[7:0];
        4'd12:       hdr_byte = ETYPE[15:8];
        4'd13:       hdr_byte = ETYPE[7:0];
        default:     hdr_byte = 8'h00;   // bytes 3 and 9
    endcase
end

wire [31:0] crc_byte;

`ifdef FORMAL
// The proof takes the CRC step and the slot bytes as any values: what it
// checks is how the stages move, not what they carry.
(* anyseq *) reg [31:0] f_crc_step;
(* anyseq *) reg [7:0]  f_slot_byte;
assign crc_byte = f_crc_step;
`else
tg_crc32_d64 tg_crc32_d64_inst (
    .crc_in  (crc_reg),
    .data    ({56'd0, data2_reg}),
    .keep    (8'h01),
    .crc_out (crc_byte)
);
`endif

wire [31:0] fcs = ~crc_reg;
reg  [7:0]  fcs_byte;
always @* begin
    case (fcsi2_reg)
        2'd0:    fcs_byte = fcs[7:0];
        2'd1:    fcs_byte = fcs[15:8];
        2'd2:    fcs_byte = fcs[23:16];
        default: fcs_byte = fcs[31:24];
    endcase
end

wire take = v2_reg && m_tx_tready;

assign s_frm_ready  = !full_reg[wslot_reg];
assign m_tx_tdata   = fcs2_reg ? fcs_byte : data2_reg;
assign m_tx_tvalid  = v2_reg;
assign m_tx_tlast   = last2_reg;
assign ev_tx_start  = ev_reg[0];
assign ev_tx_frame  = ev_reg[1];

// ---------------------------------------------------------------- next state
always @* begin
    wslot_next  = wslot_reg;
    rslot_next  = rslot_reg;
    full_next   = full_reg;
    pos_next    = pos_reg;
    fcs_zone_next = fcs_zone_reg;
    v1_next     = v1_reg;
    kind1_next  = kind1_reg;
    pos1_next   = pos1_reg;
    first1_next = first1_reg;
    last1_next  = last1_reg;
    v2_next     = v2_reg;
    fcs2_next   = fcs2_reg;
    fcsi2_next  = fcsi2_reg;
    data2_next  = data2_reg;
    first2_next = first2_reg;
    last2_next  = last2_reg;
    crc_next    = crc_reg;
    ev_next     = {take && last2_reg, take && first2_reg};

    if (s_frm_valid && s_frm_ready) begin
        full_next[wslot_reg] = 1'b1;
        wslot_next           = wslot_reg + 2'd1;
    end

    // a data byte leaves: into the CRC; the last FCS byte: CRC starts over
    if (take) begin
        if (!fcs2_reg) crc_next = crc_byte;
        if (last2_reg) crc_next = 32'hFFFFFFFF;
    end

`ifdef TG_TESTBUG_014
    // deliberate bug: the output byte follows the read stage even while it
    // waits to be taken
    data2_next = (kind1_reg == K_HDR) ? hdr_byte : rd_data_reg;
`endif
    if (adv) begin
        // output stage
        v2_next     = v1_reg;
        fcs2_next   = (kind1_reg == K_FCS);
        fcsi2_next  = pos1_reg[1:0] - 2'd2;   // FCS byte 0 is at 62 + 8k
        data2_next  = (kind1_reg == K_HDR) ? hdr_byte : rd_data_reg;
        first2_next = first1_reg;
        last2_next  = last1_reg;
        // read stage
`ifdef TG_TESTBUG_013
        // deliberate bug: the read stage takes a position only while the
        // output stage is empty
        v1_next     = sending && !v2_reg;
`else
        v1_next     = sending;
`endif
        kind1_next  = kind0;
        pos1_next   = pos_reg[3:0];
        first1_next = (pos_reg == 8'd0);
        last1_next  = (pos_reg == pos_last_reg);
        // position stage: after the last FCS position the slot is read
        // out and free
        if (sending) begin
            fcs_zone_next = fcs_zone_reg || (pos_reg == data_last_reg);
            if (pos_reg == pos_last_reg) begin
                pos_next             = 8'd0;
                fcs_zone_next        = 1'b0;
                full_next[rslot_reg] = 1'b0;
                rslot_next           = rslot_reg + 2'd1;
            end else begin
                pos_next = pos_reg + 8'd1;
            end
        end
    end
end

always @(posedge clk) begin
    wslot_reg  <= wslot_next;
    rslot_reg  <= rslot_next;
    full_reg   <= full_next;
    pos_reg    <= pos_next;
    fcs_zone_reg <= fcs_zone_next;
    v1_reg     <= v1_next;
    kind1_reg  <= kind1_next;
    pos1_reg   <= pos1_next;
    first1_reg <= first1_next;
    last1_reg  <= last1_next;
    v2_reg     <= v2_next;
    fcs2_reg   <= fcs2_next;
    fcsi2_reg  <= fcsi2_next;
    data2_reg  <= data2_next;
    first2_reg <= first2_next;
    last2_reg  <= last2_next;
    crc_reg    <= crc_next;
    ev_reg     <= ev_next;
    if (rst) begin
        wslot_reg  <= 2'd0;
        rslot_reg  <= 2'd0;
        full_reg   <= 4'd0;
        pos_reg    <= 8'd0;
        fcs_zone_reg <= 1'b0;
        v1_reg     <= 1'b0;
        v2_reg     <= 1'b0;
        crc_reg    <= 32'hFFFFFFFF;
        ev_reg     <= 2'd0;
    end
end

always @(posedge clk) begin
    if (s_frm_valid && s_frm_ready) plen_reg[wslot_reg] <= s_frm_words;
end

// ---------------------------------------------------------------- slot memory
// A slot handed over is not written again until it has been read out.
always @(posedge clk) begin
    if (s_wr_en && !full_reg[wslot_reg]) begin
        buf_mem[{wslot_reg, s_wr_off}] <= s_wr_data;
    end
`ifdef FORMAL
    if (adv) rd_data_reg <= f_slot_byte;
`else
    if (adv) rd_data_reg <= buf_mem[{rslot_reg, rd_off}];
`endif
end

`ifdef FORMAL
// ---------------------------------------------------------------- properties
// f_in_frame: a byte of a frame was taken and its last byte not yet.
reg       f_past_valid = 1'b0;
reg       f_in_frame;
reg       f_stalled;              // the last cycle offered a byte not taken ...
reg [7:0] f_data;                 // ... this one
reg       f_last;
always @(posedge clk) begin
    f_past_valid <= 1'b1;
    if (m_tx_tvalid && m_tx_tready) f_in_frame <= !m_tx_tlast;
    f_stalled <= m_tx_tvalid && !m_tx_tready;
    f_data    <= m_tx_tdata;
    f_last    <= m_tx_tlast;
    if (rst) begin
        f_in_frame <= 1'b0;
        f_stalled  <= 1'b0;
    end
end

always @* begin
    if (!f_past_valid) begin
        assume(rst);
    end
    if (f_past_valid && !rst) begin
        // T1: once a frame's first byte is taken, a byte is offered every
        // cycle until its last is taken (a GMII MAC cannot pause)
        if (f_in_frame) begin
            assert(m_tx_tvalid);
        end
        // T2: a byte offered and not taken stays, unchanged
        if (f_stalled) begin
            assert(m_tx_tvalid && m_tx_tdata == f_data && m_tx_tlast == f_last);
        end
        // the stages behind a byte that is not a frame's last hold the
        // frame's next bytes, and the position stage the one after
        if (v2_reg && !last2_reg) begin
            assert(v1_reg && !first1_reg);
        end
        if (v1_reg && !last1_reg) begin
            assert(sending && pos_reg != 8'd0);
        end
        // ... and behind a frame's last byte the next frame starts; the
        // position stage is at a frame's first byte while the read stage
        // is empty or holds a frame's last
        if (v2_reg && last2_reg && v1_reg) begin
            assert(first1_reg);
        end
        if ((v1_reg && last1_reg) || !v1_reg) begin
            assert(pos_reg == 8'd0);
        end
        // inside a slot's frame the position runs up to its last FCS byte,
        // and it is 0 between frames
        assert(sending || pos_reg == 8'd0);
        if (sending && pos_reg != 8'd0) begin
            assert(pos_last_reg == {1'b0, plen_w, 3'd0} + 8'd65 && pos_reg <= pos_last_reg);
        end
        // a byte other than a frame's first is offered exactly inside a frame
        assert(f_in_frame == (v2_reg && !first2_reg));
    end
end
`endif

endmodule

`default_nettype wire
