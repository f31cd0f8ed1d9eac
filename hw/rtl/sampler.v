// ML-KEM samplers on the sponge's 64-bit output lanes (FIPS 203 Algorithms 7 and 8), producing
// up to 2 STEPS coefficients a cycle for poly_packer (the core sets STEPS = 1, 3, 4 for NBU = 1,
// 2, 4: the engine takes a word of 2 NBU coefficients a cycle, and SampleNTT needs 3 steps, 72
// bits, to keep up with a 64-bit lane a cycle; the packer holds the sampler when it falls behind).
//   mode 0, SampleNTT: 3 bytes -> candidates d1 = b0 + 256 (b1 mod 16), d2 = b1/16 + 16 b2, each
//           kept when below q (XOF = SHAKE128(rho || j || i)). Rejection depends only on public rho.
//   mode 1, SamplePolyCBD eta = 2: 4 bits -> (x0 + x1) - (x2 + x3) mod q  (PRF = SHAKE256(sigma||N))
//   mode 2, SamplePolyCBD eta = 3: 6 bits -> (x0 + x1 + x2) - (x3 + x4 + x5) mod q
//   scale (CBD): the coefficient times 128^-1 mod q (-26 r for r in -3..3, a 7-entry table), so
//           the inverse NTT of a product with the NTT of this polynomial needs no scaling pass
// A step takes 24 / 8 / 12 bits (two candidates or coefficients); a cycle does as many steps, up
// to STEPS, as the buffered bits allow. Stops after 256 coefficients (later candidates of the
// last cycle are dropped). The CBD path has no data-dependent control flow.
module sampler #(
    parameter STEPS = 1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        start,
    input  wire [1:0]  mode,
    input  wire        scale,
    input  wire        hold,         // no step this cycle (the packer has a word waiting)
    input  wire        lane_valid,
    output wire        lane_ready,
    input  wire [63:0] lane,
    output reg  [3:0]  n_out,        // coefficients valid this cycle (0..2 STEPS), in c[12i +: 12]
    output reg  [24*STEPS-1:0] c,
    output wire        finished
);
    localparam NC = 2 * STEPS;               // candidates per cycle at most
    // The unread bits (a lane comes when <= 32 STEPS of them stay) start at bit `off` of the
    // lanes held, oldest lane lowest. Every take (8, 12, 24 bits a step) is a multiple of 4, so
    // the read window is one shifter of 16 positions and a lane is a copy into a whole slot.
    localparam NL = (124 + 32 * STEPS) / 64; // lanes held at most: off <= 60, nbits <= 64 + 32 STEPS
    reg  [1:0]    md;
    reg           sc;
    reg  [64*NL-1:0] lanes;
    reg  [5:0]    off;
    reg  [7:0]    nbits;     // unread bits
    /* verilator lint_off UNUSEDSIGNAL */
    wire [64*NL-1:0] bits = lanes >> {off[5:2], 2'b00};
    /* verilator lint_on UNUSEDSIGNAL */
    reg  [8:0]    count;     // coefficients produced
    assign finished = count[8];

    wire [4:0] take = (md == 2'd0) ? 5'd24 : (md == 2'd1) ? 5'd8 : 5'd12;   // bits per step

    function [11:0] cbd;
        input [5:0] x;
        input       eta3;
        input       scaled;
        reg [2:0] a, b;
        begin
            if (eta3) begin a = x[0] + x[1] + x[2]; b = x[3] + x[4] + x[5]; end
            else      begin a = x[0] + x[1];        b = x[2] + x[3]; end
            // r = a - b; scaled: r * 3303 = -26 r mod q, a table (no multiplier)
            if (!scaled) cbd = (a >= b) ? a - b : 12'd3329 - (b - a);
            else case ((a >= b) ? a - b : b - a)
                3'd1:    cbd = (a >= b) ? 12'd3303 : 12'd26;
                3'd2:    cbd = (a >= b) ? 12'd3277 : 12'd52;
                3'd3:    cbd = (a >= b) ? 12'd3251 : 12'd78;
                default: cbd = 12'd0;
            endcase
        end
    endfunction

    // steps this cycle, and the bits they use (constants per mode: no multipliers)
    function [7:0] bits_of;
        input [1:0] m;
        input integer k;
        bits_of = (m == 2'd0) ? 24 * k : (m == 2'd1) ? 8 * k : 12 * k;
    endfunction
    reg  [2:0]  nsteps;
    reg  [7:0]  used;
    reg  [11:0] cand [0:NC-1];
    reg         ok [0:NC-1];
    reg  [3:0]  pos [0:NC-1];     // output position of candidate i (accepted ones before it)
    reg  [8:0]  room;
    integer s, i, j;
    always @* begin
        nsteps = 3'd0; used = 8'd0;
        for (s = 1; s <= STEPS; s = s + 1)
            if (!finished && !hold && nbits >= bits_of(md, s)) begin
                nsteps = s; used = bits_of(md, s);
            end
        for (s = 0; s < STEPS; s = s + 1) begin
            // step s: candidates 2s, 2s+1
            case (md)
                2'd0: begin
                    cand[2*s]   = {bits[24*s + 8 +: 4], bits[24*s +: 8]};
                    cand[2*s+1] = {bits[24*s + 16 +: 8], bits[24*s + 12 +: 4]};
                end
                2'd1: begin
                    cand[2*s]   = cbd({2'b0, bits[8*s +: 4]}, 1'b0, sc);
                    cand[2*s+1] = cbd({2'b0, bits[8*s + 4 +: 4]}, 1'b0, sc);
                end
                default: begin
                    cand[2*s]   = cbd(bits[12*s +: 6], 1'b1, sc);
                    cand[2*s+1] = cbd(bits[12*s + 6 +: 6], 1'b1, sc);
                end
            endcase
            ok[2*s]   = s < nsteps && (md != 2'd0 || cand[2*s] < 12'd3329);
            ok[2*s+1] = s < nsteps && (md != 2'd0 || cand[2*s+1] < 12'd3329);
        end
        // keep the accepted candidates in order, at most 256 - count of them: candidate i goes
        // to output pos[i] (an AND-OR selection, no shifter)
        room = 9'd256 - count;
        pos[0] = 4'd0;
        if (room == 9'd0) ok[0] = 1'b0;
        for (i = 1; i < NC; i = i + 1) begin
            pos[i] = pos[i-1] + {3'd0, ok[i-1]};
            if ({5'd0, pos[i]} >= room) ok[i] = 1'b0;
        end
        n_out = pos[NC-1] + {3'd0, ok[NC-1]};
        c = 0;
        for (j = 0; j < NC; j = j + 1)
            for (i = j; i < NC; i = i + 1)
                if (ok[i] && pos[i] == j) c[12*j +: 12] = c[12*j +: 12] | cand[i];
    end
    wire [7:0] left = nbits - used;
    assign lane_ready = !finished && left <= 32 * STEPS;

    // consume the steps (whole lanes read drop out), then the lane goes into the first free slot
    wire [7:0] end_pos = {2'd0, off} + used;
    wire [7:0] held8   = {2'd0, off} + nbits;             // a multiple of 64
    wire [1:0] passed  = end_pos[7:6];
    wire [1:0] slot    = held8[7:6] - passed;
    wire       push    = lane_valid && lane_ready;
    reg  [64*NL-1:0] lanes_next;
    integer l;
    always @* begin
        lanes_next = lanes >> {passed, 6'd0};
        for (l = 0; l < NL; l = l + 1)
            if (push && slot == l) lanes_next[64*l +: 64] = lane;
    end

    always @(posedge clk) begin
        if (rst || start) begin
            md <= mode; sc <= scale; lanes <= {64*NL{1'b0}}; off <= 6'd0; nbits <= 8'd0;
            count <= 9'd0;
        end else begin
            count <= count + {5'd0, n_out};
            lanes <= lanes_next;
            off   <= end_pos[5:0];
            nbits <= push ? left + 8'd64 : left;
        end
    end
endmodule

// Packs a stream of up to 2 STEPS coefficients a cycle into words of W = 2 NBU coefficients for
// the polynomial engine's host port (at most one word a cycle, so 2 STEPS <= W keeps up).
module poly_packer #(
    parameter NBU   = 2,
    parameter STEPS = 1
) (
    input  wire               clk,
    input  wire               rst,
    input  wire               start,
    input  wire [3:0]         n_in,
    input  wire [24*STEPS-1:0] c,
    output reg                word_valid,
    output reg  [7:0]         word_index,
    output reg  [24*NBU-1:0]  word,
    output wire               full           // a whole word waits: hold the sampler a cycle
);
    localparam W = 2 * NBU;
    // the sampler steps only while fewer than W wait, so at most W - 1 + 2 STEPS are ever held
    localparam AC = W + 2 * STEPS;
    assign full = n >= W;
    reg [12*AC-1:0] acc;        // n coefficients, zeros above them
    reg [4:0]       n;
    reg [7:0]       next_index;
    reg [12*AC-1:0] merged;
    reg [4:0]       total;
    integer k;

    // the new coefficients (zeros above n_in, as the sampler gives them) placed above the n
    // waiting: a select among constant shifts (no multiplier for 12 n). New ones come only while
    // fewer than W wait (the sampler is held while `full`, and then gives n_in = 0, c = 0).
    always @* begin
        merged = acc;
        for (k = 0; k < W; k = k + 1)
            if (n == k) merged = acc | ({{(12*AC){1'b0}}, c} << (12 * k));
        total = n + {1'b0, n_in};
    end

    always @(posedge clk) begin
        word_valid <= 1'b0;
        if (rst || start) begin
            n <= 5'd0; next_index <= 8'd0; acc <= 0; word <= 0;   // nothing left (the core's wipe)
        end else if (total >= W) begin
            word_valid <= 1'b1; word_index <= next_index; word <= merged[24*NBU-1:0];
            next_index <= next_index + 8'd1;
            acc <= merged >> (12 * W);
            n <= total - W;
        end else begin
            acc <= merged;
            n <= total;
        end
    end
endmodule

// Test top: sponge -> sampler -> packer, as the core wires them.
module sampler_top #(
    parameter NBU   = 2,
    parameter STEPS = (NBU == 2) ? 3 : NBU
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        init,
    input  wire [1:0]  hash_mode,
    input  wire [1:0]  sample_mode,
    input  wire        scale,
    input  wire        in_valid,
    output wire        in_ready,
    input  wire [63:0] in_data,
    input  wire [3:0]  in_bytes,
    input  wire        in_last,
    output wire        word_valid,
    output wire [7:0]  word_index,
    output wire [24*NBU-1:0] word,
    output wire        finished
);
    wire        ov;
    wire        ordy;
    wire [63:0] od;
    wire [3:0]  n;
    wire [24*STEPS-1:0] cs;
    wire [1599:0] st;
    wire blk;
    keccak_sponge sp (.clk(clk), .rst(rst), .init(init), .mode(hash_mode), .in_valid(in_valid),
                      .in_ready(in_ready), .in_data(in_data), .in_bytes(in_bytes), .in_last(in_last),
                      .out_valid(ov), .out_ready(ordy), .out_data(od), .block_ready(blk), .state(st));
    wire full;
    sampler #(.STEPS(STEPS)) sm (.clk(clk), .rst(rst), .start(init), .mode(sample_mode), .scale(scale),
                .hold(full), .lane_valid(ov), .lane_ready(ordy), .lane(od), .n_out(n), .c(cs),
                .finished(finished));
    poly_packer #(.NBU(NBU), .STEPS(STEPS)) pk (.clk(clk), .rst(rst), .start(init), .n_in(n), .c(cs),
                                 .word_valid(word_valid), .word_index(word_index), .word(word),
                                 .full(full));
endmodule
