// FIPS 202 sponge over keccak_f1600: SHA3-256, SHA3-512, SHAKE128, SHAKE256, fed and read one
// 64-bit lane per cycle (the widths of the AXI4-Stream port and of ML-KEM's byte strings).
//
// init with mode (0 SHA3-256, 1 SHA3-512, 2 SHAKE128, 3 SHAKE256) clears the state. Input words
// are little-endian byte strings: in_bytes (0..8) valid bytes on the last word (in_last), 8 on the
// others, unused bytes zero. After the last word the sponge pads, permutes and offers the output
// one lane at a time (out_valid/out_ready). Each output block is copied into a buffer as its
// permutation ends, and the next permutation starts at once, so the next block is computed while
// this one is read (a long SHAKE output takes a block every 26 cycles instead of 21 + 25).
// `block_ready` marks the first lane of each block; `state` is the Keccak state (already permuting
// ahead during the squeeze), init clears it and the buffer.
module keccak_sponge #(
    parameter DATA_LANES = 21     // see keccak_f1600: 17 if SHAKE128 inputs are at most 136 bytes
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          init,
    input  wire [1:0]    mode,
    input  wire          in_valid,
    output wire          in_ready,
    input  wire [63:0]   in_data,
    input  wire [3:0]    in_bytes,
    input  wire          in_last,
    output wire          out_valid,
    input  wire          out_ready,
    output wire [63:0]   out_data,
    output wire          block_ready,
    output wire [1599:0] state
);
    localparam S_ABSORB = 3'd0, S_PERM_IN = 3'd1, S_PAD = 3'd2, S_PERM_OUT = 3'd3, S_SQUEEZE = 3'd4,
               S_LOAD = 3'd5;
    reg  [2:0] st;
    reg  [4:0] lane;
    reg  [4:0] rate;          // lanes per block
    reg  [7:0] dsep;
    reg        pad_pending;   // the last word filled a block: pad at the start of the next one
    reg  [3:0] pad_bytes;     // bytes of the lane where the padding starts

    // The absorb states never run beside a permutation (S_PERM_IN and S_PERM_OUT end on its
    // `done`), and the squeeze reads the buffer, so no state needs the Keccak's `busy` (its
    // 1600-bit state register's select, the longest net of the block on ECP5: 7 ns of routing).
    // One exception: an init may abandon a running permutation; the registered clear stops it
    // one cycle later, and `hold` covers that cycle.
    reg  hold;
    wire done;
    // squeeze: the block being read (the rate lanes of the state when its permutation ended) and
    // whether the permutation started for the next block has ended (its state is ready to copy)
    reg  [1343:0] obuf;
    reg           nxt;
    // copy the state into obuf and start the next permutation: when the first output block is
    // ready, or in S_LOAD (the last lane of a block was taken and the next one is ready); both
    // conditions come from registers (the copy's enable reaches 1,344 flip-flops)
    wire          load = (st == S_PERM_OUT && done) || st == S_LOAD;
    reg  kgo, kclear, kxor;
    reg  [4:0]  kl;
    reg  [63:0] kd;

    // The lane XOR into the state is registered (xor_we, lane, data and the `go` that follows the
    // last lane of a block, applied together one cycle later): without this register the
    // critical path ran from the lane counter and the input word through the padding to the
    // 25 lanes' update logic (74 MHz post-route on ECP5 for the sponge alone). It costs one cycle
    // per absorbed block; `go` after a squeezed block needs no XOR and is not delayed.
    // The clear (init) is registered too: it reaches all 1600 state bits, and from the user's
    // combinational init it was a long net after logic. Order is kept: the clear lands one cycle
    // after init, and the first lane XOR after init lands one cycle later still.
    reg         r_xor, r_go, r_clear;
    reg  [4:0]  r_lane;
    reg  [63:0] r_data;
    always @(posedge clk) begin
        if (rst || init) begin
            r_xor <= 1'b0; r_go <= 1'b0;
        end else begin
            r_xor <= kxor; r_go <= kgo && kxor;
        end
        r_clear <= !rst && kclear;
        hold    <= !rst && init && st != S_ABSORB;
        r_lane <= kl; r_data <= kd;
    end

    /* verilator lint_off PINCONNECTEMPTY */
    keccak_f1600 #(.DATA_LANES(DATA_LANES)) core (.clk(clk), .rst(rst), .start(1'b0), .state_in(1600'd0),
                       .go(r_go || (kgo && !kxor)), .clear(r_clear), .xor_we(r_xor),
                       .xor_lane(r_lane), .xor_data(r_data), .state(state), .busy(), .done(done));
    /* verilator lint_on PINCONNECTEMPTY */

    assign in_ready    = (st == S_ABSORB) && !hold && !init;
    assign out_valid   = (st == S_SQUEEZE) && !hold;
    assign block_ready = out_valid && lane == 5'd0;

    // padding for a message ending with `nb` bytes into lane `ln`: dsep at that byte, 0x80 at
    // the last byte of the block (both in one lane when the message ends in the last lane)
    function [63:0] pad_lane;
        input [4:0] ln;
        input [3:0] nb;
        input [4:0] rt;
        input [7:0] ds;
        reg [63:0] v;
        begin
            v = {56'd0, ds} << (8 * nb);
            if (ln == rt - 5'd1) v = v ^ 64'h8000000000000000;
            pad_lane = v;
        end
    endfunction

    // The output lane: a mux tree on the lane number's bits (4:1 muxes on lane[1:0], one LUT6 a
    // bit each, then lane[4:2] over the 5 groups and lane 20): about 7 LUT6 a bit in xcup. Written
    // as obuf[64*lane +: 64], Yosys 0.23 builds a shifter of 11 stages (some 5k LUT and 5k MUXF);
    // as a chain of `if (lane == i)` (a priority select), ABC needed ~14 LUT a bit.
    function [63:0] mux4;
        input [255:0] v;
        input [1:0]   s;
        mux4 = s[1] ? (s[0] ? v[255:192] : v[191:128]) : (s[0] ? v[127:64] : v[63:0]);
    endfunction
    // The group outputs are kept, so ABC maps each 4:1 to one LUT6 (without: ~610 LUT, not 448).
    // (Declared apart from their assigns: Icarus drops attributes on net declaration assignments.)
    (* keep *) wire [63:0] g0, g1, g2, g3, g4, g03;
    assign g0  = mux4(obuf[0 +: 256], lane[1:0]);       // lanes 0-3
    assign g1  = mux4(obuf[256 +: 256], lane[1:0]);     // lanes 4-7
    assign g2  = mux4(obuf[512 +: 256], lane[1:0]);     // 8-11
    assign g3  = mux4(obuf[768 +: 256], lane[1:0]);     // 12-15
    assign g4  = mux4(obuf[1024 +: 256], lane[1:0]);    // 16-19
    assign g03 = mux4({g3, g2, g1, g0}, lane[3:2]);
    wire [63:0] out_lane = lane[4] ? (lane[2] ? obuf[1280 +: 64] : g4) : g03;
    assign out_data = out_lane;
    always @(posedge clk) begin
        if (r_clear) obuf <= 1344'd0;
        else if (load) obuf <= state[1343:0];
    end

    wire last_partial = in_last && in_bytes != 4'd8;
    wire at_end       = lane == rate - 5'd1;

    always @* begin
        kgo = 1'b0; kclear = 1'b0; kxor = 1'b0; kl = lane; kd = 64'd0;
        if (init) kclear = 1'b1;
        else case (st)
            S_ABSORB: if (in_valid && !hold) begin
                kxor = 1'b1;
                kd   = last_partial ? in_data ^ pad_lane(lane, in_bytes, rate, dsep) : in_data;
                kgo  = at_end;             // a full block, or a message ending in its last lane
            end
            S_PAD: if (!hold) begin
                kxor = 1'b1;
                kd   = pad_lane(lane, pad_bytes, rate, dsep);
                kgo  = at_end;
            end
            default: kgo = load;           // S_PERM_OUT / S_LOAD: the next block's permutation
        endcase
    end

    always @(posedge clk) begin
        if (rst) begin
            st <= S_ABSORB; lane <= 5'd0; rate <= 5'd17; dsep <= 8'h06; pad_pending <= 1'b0;
            pad_bytes <= 4'd0;
        end else if (init) begin
            st <= S_ABSORB; lane <= 5'd0; pad_pending <= 1'b0;
            case (mode)
                2'd0: begin rate <= 5'd17; dsep <= 8'h06; end
                2'd1: begin rate <= 5'd9;  dsep <= 8'h06; end
                2'd2: begin rate <= 5'd21; dsep <= 8'h1F; end
                default: begin rate <= 5'd17; dsep <= 8'h1F; end
            endcase
        end else case (st)
            S_ABSORB: if (in_valid && !hold) begin
                if (last_partial) begin
                    // the padding's first byte went in with the data
                    if (at_end) begin st <= S_PERM_OUT; lane <= 5'd0; end
                    else begin st <= S_PAD; lane <= rate - 5'd1; pad_bytes <= 4'd8; end
                end else if (in_last) begin
                    // a full last word: the padding starts in the next lane (next block if full)
                    if (at_end) begin st <= S_PERM_IN; lane <= 5'd0; pad_pending <= 1'b1; end
                    else begin st <= S_PAD; lane <= lane + 5'd1; end
                    pad_bytes <= 4'd0;
                end else if (at_end) begin
                    st <= S_PERM_IN; lane <= 5'd0;
                end else lane <= lane + 5'd1;
            end
            S_PERM_IN: if (done) st <= pad_pending ? S_PAD : S_ABSORB;
            S_PAD: if (!hold) begin
                // pad_bytes = 8: only the final 0x80 (in the block's last lane)
                if (at_end) begin st <= S_PERM_OUT; lane <= 5'd0; end
                else begin lane <= rate - 5'd1; pad_bytes <= 4'd8; end
            end
            S_PERM_OUT: if (done) begin st <= S_SQUEEZE; lane <= 5'd0; nxt <= 1'b0; end
            S_SQUEEZE: begin
                if (done) nxt <= 1'b1;
                if (out_ready && !hold) begin
                    lane <= at_end ? 5'd0 : lane + 5'd1;
                    // the block is read: copy the next one (S_LOAD) or wait for its permutation
                    if (at_end) st <= (nxt || done) ? S_LOAD : S_PERM_OUT;
                end
            end
            S_LOAD: begin st <= S_SQUEEZE; nxt <= 1'b0; end
            default: st <= S_ABSORB;
        endcase
    end
endmodule

// The sponge without its 1600-bit state port (unused in the core), as a top for place and route
// of the block alone (make hw-synth: ECP5 Fmax of the largest block beside the whole core's).
module keccak_sponge_pins (
    input  wire        clk,
    input  wire        rst,
    input  wire        init,
    input  wire [1:0]  mode,
    input  wire        in_valid,
    output wire        in_ready,
    input  wire [63:0] in_data,
    input  wire [3:0]  in_bytes,
    input  wire        in_last,
    output wire        out_valid,
    input  wire        out_ready,
    output wire [63:0] out_data,
    output wire        block_ready
);
    /* verilator lint_off UNUSEDSIGNAL */
    wire [1599:0] state;
    /* verilator lint_on UNUSEDSIGNAL */
    keccak_sponge sp (.clk(clk), .rst(rst), .init(init), .mode(mode), .in_valid(in_valid),
                      .in_ready(in_ready), .in_data(in_data), .in_bytes(in_bytes), .in_last(in_last),
                      .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data),
                      .block_ready(block_ready), .state(state));
endmodule
