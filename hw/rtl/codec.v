// ML-KEM encodings between polynomial-engine words (W = 2 NBU coefficients) and 64-bit lanes
// (FIPS 203 ByteEncode_d / ByteDecode_d, Compress_d / Decompress_d, d in {1, 4, 5, 10, 11, 12}).
// 256 coefficients of d bits are exactly 4d lanes, so a polynomial never shares a lane.
// The constant multiplications are shift-adds (no DSPs).

// The data width per d is fixed, so d is held one-hot (dsel, bit k for d = DVAL(k)) and every
// d-dependent layout is an AND-OR of 6 constant ones (no run-time barrel shifter on d). Both bit
// buffers move in steps of W bits (every count, d W, is a multiple of W; W is a power of 2), so
// their one variable shifter has 64 / W or 128 / W positions.

// Engine words in (read from the host port, one per cycle when `word_ready`), lanes out.
// d = 12 encodes without compression (ek, dk); other d compress first. word_m adds
// Decompress_1(m) = 1665 to coefficient i where bit i is set, before Compress (encryption's v + mu;
// exact for d = 1, 4, 5, the d of v; ignored at d = 12).
module poly_serializer #(
    parameter NBU = 2
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              start,
    input  wire [3:0]        d,
    input  wire              word_valid,
    output wire              word_ready,
    input  wire [24*NBU-1:0] word,
    input  wire [2*NBU-1:0]  word_m,
    output wire              lane_valid,
    input  wire              lane_ready,
    output wire [63:0]       lane
);
    localparam W = 2 * NBU;
    localparam LG = (W == 2) ? 1 : (W == 4) ? 2 : 3;   // log2 W
    // a lane leaves whenever 64 bits wait; a word is taken while it fits (NBU = 4: 64 + 96 bits)
    localparam AW = (64 + 12 * W > 128) ? 64 + 12 * W : 128;
`include "codec.vh"
    reg  [5:0]    dsel;
    reg  [AW-1:0] acc;
    reg  [7:0]    nacc;
    wire [7:0]    nbits = d_bits(dsel, W);
    // the rounding constant 2^(20-d) of Compress_d: one bit, the one-hot select itself, placed;
    // with m, also K = 2^20 + 315: Compress_d((x + 1665) mod q) = ((p + K + 2^(20-d)) >> (21 - d))
    // mod 2^d for every x < q and d = 1, 4, 5 (K ~ 2^21 1665 / q; checked in test_codec.py)
    wire [21:0]   rnd  = {2'd0, dsel[0], 2'd0, dsel[1], dsel[2], 4'd0, dsel[3], dsel[4], 9'd0};
    wire [21:0]   rndm = rnd + 22'd1048891;

    // Three stages, so Compress, the d select and the bit buffer's shifter are not in one cycle
    // (the clock):
    //   X: the word taken and the two halves of each coefficient's Compress (codec.vh);
    //   Q: their sum, each d's slice selected: the word's encoding (encq);
    //   the bit buffer: encq goes in above the bits that stay after the lane leaving now.
    // A stage moves on when the next one is free or moves on itself; encq goes into the buffer
    // when it fits after this cycle's lane (fit_g / fit_n, both from registers, so the lane's
    // `give` is the last select). A lane leaves whenever 64 bits wait and it is taken.
    reg  [12*W-1:0] xw;
    reg  [21*W-1:0] xhi;
    reg  [22*W-1:0] xlo;
    reg             xv;                   // X holds a word
    reg  [12*W-1:0] encq;
    reg             encv;                 // Q holds a word's encoding
    wire [72*W-1:0] enc_d;                // the encoding for each d, at 12 W gd
    genvar gi, gd;
    generate
        for (gi = 0; gi < W; gi = gi + 1) begin : coef
            wire [21:0] p = {xhi[21*gi +: 21], 1'b0} + xlo[22*gi +: 22];   // Compress's p + 2^(20-d)
            for (gd = 0; gd < 6; gd = gd + 1) begin : per_d
                localparam integer D = DVAL[4*gd +: 4];
                if (D == 12) assign enc_d[12*W*gd + 12*gi +: 12] = xw[12*gi +: 12];
                else assign enc_d[12*W*gd + D*gi +: D] = p[21-D +: D];
            end
        end
        for (gd = 0; gd < 6; gd = gd + 1) begin : pad
            localparam integer D = DVAL[4*gd +: 4];
            if (D < 12) assign enc_d[12*W*gd + D*W +: 12*W-D*W] = {(12*W-D*W){1'b0}};
        end
    endgenerate
    reg [12*W-1:0] enc;
    integer k;
    always @* begin
        enc = {12*W{1'b0}};
        for (k = 0; k < 6; k = k + 1)
            enc = enc | (enc_d[12*W*k +: 12*W] & {12*W{dsel[k]}});
    end

    assign lane_valid = nacc >= 8'd64;
    assign lane       = acc[63:0];
    wire give = lane_valid && lane_ready;
    wire [7:0] keep = give ? nacc - 8'd64 : nacc;
    // (thresholds per instruction in registers: a compare, no adder, in front of word_ready)
    reg  [8:0] th_g, th_n;                                    // AW + 64 - d W, AW - d W
    wire fit_g = {1'b0, nacc} <= th_g;                        // (with a lane leaving: nacc >= 64)
    wire fit_n = {1'b0, nacc} <= th_n;
    wire land   = encv && (give ? fit_g : fit_n);
    wire q_move = xv && (!encv || land);
    assign word_ready = !xv || q_move;
    wire take = word_valid && word_ready;
    // one write shifter: the word goes above what stays after the lane leaves (a multiple of W)
    wire [AW-1:0] rest = give ? acc >> 64 : acc;
    wire [AW-1:0] put  = {{(AW-12*W){1'b0}}, encq} << {keep[6:LG], {LG{1'b0}}};
    always @(posedge clk) begin
        if (rst || start) begin
            dsel <= d_onehot(d); acc <= {AW{1'b0}}; nacc <= 8'd0;
            th_g <= AW + 64 - d_bits(d_onehot(d), W); th_n <= AW - d_bits(d_onehot(d), W);
            xv <= 1'b0; xw <= {12*W{1'b0}}; xhi <= {21*W{1'b0}}; xlo <= {22*W{1'b0}};
            encv <= 1'b0; encq <= {12*W{1'b0}};
        end else begin
            xv <= take || (xv && !q_move);
            if (take)
                for (k = 0; k < W; k = k + 1) begin
                    xw[12*k +: 12]  <= word[12*k +: 12];
                    xhi[21*k +: 21] <= compress_hi(word[12*k +: 12]);
                    xlo[22*k +: 22] <= compress_lo(word[12*k +: 12], word_m[k] ? rndm : rnd);
                end
            encv <= q_move || (encv && !land);
            if (q_move) encq <= enc;
            if (land || give) begin
                acc  <= land ? rest | put : rest;
                nacc <= keep + (land ? nbits : 8'd0);
            end
        end
    end
endmodule

// Lanes in, engine words out (to the host write port), decompressing for d < 12. For d = 12 it
// flags any field >= q (FIPS 203 7.2 modulus check on ek) in `bad`, which stays set until start.
// The unread bits start at bit `off` of the lanes {.., l1, l0} (l0 the oldest). A lane is taken
// while nacc <= 64, so with words of d W <= 64 bits (NBU <= 2) at most two lanes are ever held and
// a read never passes the pair's end. At W = 8 a word can need more than 64 bits (d = 10, 11, 12:
// 80, 88, 96), and at d = 11 nacc reaches 72 or 80: with the rule alone it would neither read nor
// take a lane. So at NBU 4 a lane is also taken while nacc < d W, into a third slot l2 (NL = 3):
// off + nacc is a whole number of lanes <= 63 + 95 before the lane, so at most three are held.
module poly_deserializer #(
    parameter NBU = 2
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              start,
    input  wire [3:0]        d,
    input  wire              lane_valid,
    output wire              lane_ready,
    input  wire [63:0]       lane,
    output reg               word_valid,
    output reg  [7:0]        word_index,
    output reg  [24*NBU-1:0] word,
    output reg               bad
);
    localparam W = 2 * NBU;
    localparam LG = (W == 2) ? 1 : (W == 4) ? 2 : 3;   // log2 W
`include "codec.vh"
    localparam NL = (12 * W > 64) ? 3 : 2;   // lane slots (see above)
    reg  [5:0]   dsel;
    reg  [63:0]  l0, l1, l2;
    reg  [5:0]   off;        // read position in l0 (a multiple of W)
    reg  [7:0]   nacc;       // unread bits
    reg  [7:0]   next_index;

    wire [7:0] nbits = d_bits(dsel, W);
    localparam [8:0] WORDS = 256 / W;
    wire       emit  = nacc >= nbits && {1'b0, next_index} != WORDS;
    // lane_ready is a register (set with nacc: no compare behind it, the clock)
    reg        lrdy;
    assign lane_ready = lrdy;

    /* verilator lint_off UNUSEDSIGNAL */
    wire [64*NL-1:0] held_lanes;
    generate
        if (NL == 3) begin : three
            assign held_lanes = {l2, l1, l0};
        end else begin : two
            assign held_lanes = {l1, l0};
        end
    endgenerate
    wire [64*NL-1:0] win = held_lanes >> {off[5:LG], {LG{1'b0}}};
    /* verilator lint_on UNUSEDSIGNAL */
    // the fields, each d's layout a constant one; d < 12 left-aligned to 12 bits, for which
    // Decompress_d(y) = (q (y << (12 - d)) + 2^11) >> 12 (the same quotient): one product for all d
    wire [12*W-1:0] unenc;
    wire [60*W-1:0] yal_d;     // for d < 12, the fields left-aligned, at 12 W gd
    reg  [12*W-1:0] yal;
    reg             over;
    integer k, i;
    genvar gi, gd;
    generate
        for (gd = 0; gd < 5; gd = gd + 1) begin : per_d
            localparam integer D = DVAL[4*gd +: 4];
            for (gi = 0; gi < W; gi = gi + 1) begin : coef
                assign yal_d[12*W*gd + 12*gi +: 12] = {win[D*gi +: D], {(12-D){1'b0}}};
            end
        end
        for (gi = 0; gi < W; gi = gi + 1) begin : coef
            assign unenc[12*gi +: 12] = dsel[5] ? win[12*gi +: 12] : decompress12(yal[12*gi +: 12]);
        end
    endgenerate
    always @* begin
        yal = {12*W{1'b0}};
        for (k = 0; k < 5; k = k + 1)
            yal = yal | (yal_d[12*W*k +: 12*W] & {12*W{dsel[k]}});
        over = 1'b0;
        for (i = 0; i < W; i = i + 1)
            if (win[12*i +: 12] >= 12'd3329) over = 1'b1;
    end

    wire put = lane_valid && lane_ready;
    wire [7:0] nacc_new = nacc - (emit ? nbits : 8'd0) + (put ? 8'd64 : 8'd0);
    // after a read: lanes passed (0..2), the new position; a lane comes into the first free slot
    wire [7:0] end_pos = {2'd0, off} + (emit ? nbits : 8'd0);
    wire [1:0] held    = ({2'd0, off} + nacc) >> 6;      // lanes held before this cycle
    wire [1:0] passed  = end_pos[7:6];
    wire       slot0   = put && held == passed;           // the lane lands in l0 (else l1, l2)
    wire       slot1   = NL == 3 ? put && held == passed + 2'd1 : put && !slot0;
    wire       slot2   = NL == 3 && put && held == 2'd2 && passed == 2'd0;
    always @(posedge clk) begin
        word_valid <= 1'b0;
        if (rst || start) begin
            dsel <= d_onehot(d); l0 <= 64'd0; l1 <= 64'd0; l2 <= 64'd0; off <= 6'd0; nacc <= 8'd0;
            next_index <= 8'd0; bad <= 1'b0; lrdy <= 1'b1;
            word <= {24*NBU{1'b0}};      // no decoded data left behind (the core's wipe)
        end else begin
            if (emit) begin
                word_valid <= 1'b1; word_index <= next_index; word <= unenc;
                next_index <= next_index + 8'd1;
                if (over && dsel[5]) bad <= 1'b1;
            end
            // the lanes a read passes drop out (the slots above the held ones are dead)
            if (slot0) l0 <= lane;
            else if (passed != 2'd0) l0 <= (NL == 3 && passed[1]) ? l2 : l1;
            if (slot1) l1 <= lane;
            else if (NL == 3 && passed != 2'd0) l1 <= l2;
            if (slot2) l2 <= lane;
            off  <= end_pos[5:0];
            nacc <= nacc_new;
            lrdy <= nacc_new <= 8'd64 || (NL == 3 && nacc_new < nbits);
        end
    end
endmodule

// Test top: both directions side by side.
module codec_top #(
    parameter NBU = 2
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              start,
    input  wire [3:0]        d,
    input  wire              s_word_valid,
    output wire              s_word_ready,
    input  wire [24*NBU-1:0] s_word,
    input  wire [2*NBU-1:0]  s_word_m,
    output wire              s_lane_valid,
    input  wire              s_lane_ready,
    output wire [63:0]       s_lane,
    input  wire              d_lane_valid,
    output wire              d_lane_ready,
    input  wire [63:0]       d_lane,
    output wire              d_word_valid,
    output wire [7:0]        d_word_index,
    output wire [24*NBU-1:0] d_word,
    output wire              d_bad
);
    poly_serializer #(.NBU(NBU)) ser (.clk(clk), .rst(rst), .start(start), .d(d),
        .word_valid(s_word_valid), .word_ready(s_word_ready), .word(s_word), .word_m(s_word_m),
        .lane_valid(s_lane_valid), .lane_ready(s_lane_ready), .lane(s_lane));
    poly_deserializer #(.NBU(NBU)) des (.clk(clk), .rst(rst), .start(start), .d(d),
        .lane_valid(d_lane_valid), .lane_ready(d_lane_ready), .lane(d_lane),
        .word_valid(d_word_valid), .word_index(d_word_index), .word(d_word), .bad(d_bad));
endmodule
