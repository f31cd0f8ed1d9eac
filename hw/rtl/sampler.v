// ML-KEM samplers on the sponge's 64-bit output lanes (FIPS 203 Algorithms 7 and 8), producing
// up to 2 STEPS coefficients a cycle for poly_packer (the core sets STEPS = NBU: the engine takes
// a word of 2 NBU coefficients a cycle; the packer holds the sampler when it falls behind).
// SampleNTT at STEPS = 2 reads 48 of a lane's 64 bits a cycle, slower than the sponge squeezes
// (a block every 26 cycles); STEPS = 3 kept up with it, but cost ~460 LUT (xcup) and changed no
// operation's cycle count at NBU 2 (the samples run beside engine work that takes longer).
//   mode 0, SampleNTT: 3 bytes -> candidates d1 = b0 + 256 (b1 mod 16), d2 = b1/16 + 16 b2, each
//           kept when below q (XOF = SHAKE128(rho || j || i)). Rejection depends only on public rho.
//   mode 1, SamplePolyCBD eta = 2: 4 bits -> (x0 + x1) - (x2 + x3) mod q  (PRF = SHAKE256(sigma||N))
//   mode 2, SamplePolyCBD eta = 3: 6 bits -> (x0 + x1 + x2) - (x3 + x4 + x5) mod q
//   scale (CBD): the coefficient times 128^-1 mod q (-26 r for r in -3..3, a 7-entry table), so
//           the inverse NTT of a product with the NTT of this polynomial needs no scaling pass
// A step takes 24 / 8 / 12 bits (two candidates or coefficients); a cycle does all STEPS steps
// once the buffered bits allow, or none. Stops after 256 coefficients (the accepted candidates
// of the last step past the 256th go out too; the 64 words read hold exactly the first 256). The
// CBD path has no data-dependent control flow.
module sampler #(
    parameter STEPS = 1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        start,
    input  wire [1:0]  mode,
    input  wire        scale,
    input  wire        hold,         // no step this cycle (the packer will have a word waiting)
    input  wire        lane_valid,
    output wire        lane_ready,
    input  wire [63:0] lane,
    output reg  [3:0]  n_out,        // coefficients valid this cycle (0..2 STEPS), in c[12i +: 12]
    output reg  [24*STEPS-1:0] c,
    output wire        finished
);
    localparam NC = 2 * STEPS;               // candidates per cycle at most
    // Two stages, so no clock cycle holds the whole chain (window -> candidate -> `< q` -> prefix
    // positions -> compaction -> packer; 48 ns on ECP5):
    //   A: the bit window, the steps, the candidates and their `< q` flags (registered: cr, okr);
    //   B: the accepted ones compacted in order to n_out / c.
    // The stream out is the one-stage sampler's, one cycle later: the packer's `hold` says
    // whether a whole word will still wait after this cycle's B output (poly_packer's `full`),
    // which is what the one-stage sampler saw a cycle later. A's stop uses B's count, so A may
    // step once more after the 256th coefficient: what it gives, and the lanes it takes, come
    // after the 64 words that are read (every SAMPLE restarts the sponge and the sampler).
    // The unread bits (a lane comes when <= 32 STEPS of them stay) start at bit `off` of the
    // lanes held, oldest lane lowest. Every take (8, 12, 24 bits a step) is a multiple of 4, so
    // the read window is one shifter of 16 positions and a lane is a copy into a whole slot.
    localparam NL = (124 + 32 * STEPS) / 64; // lanes held at most: off <= 60, nbits <= 64 + 32 STEPS
    reg  [1:0]    md;
    reg           sc;
    reg  [64*NL-1:0] lanes;
    reg  [5:0]    off;
    reg  [7:0]    nbits;     // unread bits
    // A cycle takes all STEPS steps or none (it waits for the bits of all), so the read offset
    // moves by a whole cycle's take, 24 / 8 / 12 STEPS bits: it stays a multiple of 2^G, G =
    // log2 gcd(64, 4 STEPS), and in SampleNTT (the only mode that reads past bit 12 STEPS of
    // the window) a multiple of 2^G0, G0 = log2 gcd(64, 24 STEPS). The window is then two
    // shifters of 64 / 2^G and 64 / 2^G0 positions: at STEPS = 2, 8 positions for the low 24
    // bits and 4 for the next 24, not 16 for all 48 (xcup: ~250 -> ~100 LUT).
    localparam G  = (STEPS == 1) ? 2 : (STEPS == 2) ? 3 : 4;
    localparam G0 = G + 1;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [64*NL-1:0] bits_lo = lanes >> {off[5:G], {G{1'b0}}};
    wire [64*NL-1:0] bits_hi = lanes >> {off[5:G0], {G0{1'b0}}};
    wire [24*STEPS-1:0] bits = {bits_hi[24*STEPS-1:12*STEPS], bits_lo[12*STEPS-1:0]};
    /* verilator lint_on UNUSEDSIGNAL */

    // CBD in two steps: r = a - b in -3..3 (3-bit two's complement), then r mod q (scaled: -26 r
    // mod q) as a table of r and the scale bit. r is kept as its own net (see cbdv below): as one
    // function of the window bits, ABC mapped ~60 LUT a coefficient; this way about 20.
    function [2:0] cbd_r;
        input [5:0] x;
        input       eta3;
        reg [2:0] a, b;
        begin
            if (eta3) begin a = x[0] + x[1] + x[2]; b = x[3] + x[4] + x[5]; end
            else      begin a = x[0] + x[1];        b = x[2] + x[3]; end
            cbd_r = a - b;
        end
    endfunction
    function [11:0] cbd_val;
        input [2:0] r;
        input       scaled;
        case ({scaled, r})
            4'b0001: cbd_val = 12'd1;    4'b0010: cbd_val = 12'd2;    4'b0011: cbd_val = 12'd3;
            4'b0111: cbd_val = 12'd3328; 4'b0110: cbd_val = 12'd3327; 4'b0101: cbd_val = 12'd3326;
            // scaled: r * 128^-1 = r * 3303 = -26 r mod q
            4'b1001: cbd_val = 12'd3303; 4'b1010: cbd_val = 12'd3277; 4'b1011: cbd_val = 12'd3251;
            4'b1111: cbd_val = 12'd26;   4'b1110: cbd_val = 12'd52;   4'b1101: cbd_val = 12'd78;
            default: cbd_val = 12'd0;
        endcase
    endfunction

    // steps this cycle, and the bits they use (constants per mode: no multipliers); `hold`
    // only gates them at the end (it comes from the packer, late in the cycle)
    function [7:0] bits_of;
        input [1:0] m;
        input integer k;
        bits_of = (m == 2'd0) ? 24 * k : (m == 2'd1) ? 8 * k : 12 * k;
    endfunction
    // x >= y as logic: the small compares as carry chains, then a select, then an adder, were
    // stage A's slow path
    function ge8;
        input [7:0] x, y;
        integer t;
        reg g, e;
        begin
            g = 1'b0; e = 1'b1;                   // from the top bit: greater, equal so far
            for (t = 7; t >= 0; t = t - 1) begin
                g = g | (e & x[t] & ~y[t]);
                e = e & ~(x[t] ^ y[t]);
            end
            ge8 = g | e;
        end
    endfunction
    // x >= q = 3329 = 0xD01, as logic
    function ge_q;
        input [11:0] x;
        ge_q = x[11] & x[10] & (x[9] | (x[8] & (|x[7:0])));
    endfunction
    // each candidate's CBD: eta 2 takes 4 bits a coefficient, eta 3 six (the mode picks)
    wire [11:0] cbdv [0:NC-1];
    genvar gs, gh;
    generate
        for (gs = 0; gs < STEPS; gs = gs + 1) begin : cbd_step
            for (gh = 0; gh < 2; gh = gh + 1) begin : half
                (* keep *) wire [2:0] r;
                assign r = (md == 2'd1) ? cbd_r({2'b00, bits[8*gs + 4*gh +: 4]}, 1'b0)
                                        : cbd_r(bits[12*gs + 6*gh +: 6], 1'b1);
                assign cbdv[2*gs + gh] = cbd_val(r, sc);
            end
        end
    endgenerate

    // for every number of steps s (0..STEPS) at once: does it fit, the bits left, where the read
    // ends, may a lane come then; `sel` (one-hot) picks the most that fit, `hold` then picks
    // between that and no step
    reg  [STEPS+1:0] fits;     // fits[s]: s steps fit (fits[STEPS+1] = 0)
    reg  [STEPS:0]   sel;
    reg  [7:0]  left_f, end_f;
    reg         ready_f;
    reg  [11:0] cand [0:NC-1];
    reg         ok [0:NC-1];
    integer s;
    always @* begin
        fits = {(STEPS+2){1'b0}};
        fits[0] = 1'b1;
        // all steps or none (see the window above)
        for (s = 1; s <= STEPS; s = s + 1) fits[s] = !finished && ge8(nbits, bits_of(md, STEPS));
        left_f = 8'd0; end_f = 8'd0; ready_f = 1'b0;
        for (s = 0; s <= STEPS; s = s + 1) begin
            sel[s] = fits[s] && !fits[s+1];
            left_f  = left_f | ({8{sel[s]}} & (nbits - bits_of(md, s)));
            end_f   = end_f | ({8{sel[s]}} & ({2'd0, off} + bits_of(md, s)));
            // nbits - used <= 32 STEPS
            ready_f = ready_f | (sel[s] && ge8(32 * STEPS + bits_of(md, s), nbits));
        end
        ready_f = ready_f && !finished;
        for (s = 0; s < STEPS; s = s + 1) begin
            // step s: candidates 2s, 2s+1
            case (md)
                2'd0: begin
                    cand[2*s]   = {bits[24*s + 8 +: 4], bits[24*s +: 8]};
                    cand[2*s+1] = {bits[24*s + 16 +: 8], bits[24*s + 12 +: 4]};
                end
                default: begin
                    cand[2*s]   = cbdv[2*s];
                    cand[2*s+1] = cbdv[2*s+1];
                end
            endcase
            // the `< q` test on the window bits themselves (not after the mode select)
            ok[2*s]   = !hold && fits[s+1] &&
                        (md != 2'd0 || !ge_q({bits[24*s + 8 +: 4], bits[24*s +: 8]}));
            ok[2*s+1] = !hold && fits[s+1] &&
                        (md != 2'd0 || !ge_q({bits[24*s + 16 +: 8], bits[24*s + 12 +: 4]}));
        end
    end

    // consume the steps (whole lanes read drop out), then the lane goes into the first free slot;
    // both cases (held or not) are formed from registers, `hold` picks one
    wire [7:0] held8   = {2'd0, off} + nbits;             // a multiple of 64
    wire [1:0] passed_f = end_f[7:6];
    wire       ready_h = !finished && nbits <= 32 * STEPS;
    assign lane_ready  = hold ? ready_h : ready_f;
    // the next state, held or not, each from registers and the lane; `hold` is the last select
    wire [64*NL-1:0] lanes_hn = (lane_valid && ready_h) ? lanes_h : lanes;
    wire [64*NL-1:0] lanes_fn = (lane_valid && ready_f) ? lanes_f : lanes >> {passed_f, 6'd0};
    wire [7:0] nbits_hn = (lane_valid && ready_h) ? nbits + 8'd64 : nbits;
    wire [7:0] nbits_fn = (lane_valid && ready_f) ? left_f + 8'd64 : left_f;
    reg  [64*NL-1:0] lanes_f, lanes_h;
    integer l;
    always @* begin
        lanes_f = lanes >> {passed_f, 6'd0};
        lanes_h = lanes;
        for (l = 0; l < NL; l = l + 1) begin
            if (held8[7:6] - passed_f == l) lanes_f[64*l +: 64] = lane;
            if (held8[7:6] == l) lanes_h[64*l +: 64] = lane;
        end
    end

    // stage B: accepted candidate i goes to output pos[i] (the accepted ones before it): an
    // AND-OR selection, no shifter. The counts are written as logic (half adders), so they map
    // to LUTs: Yosys made an adder chain per candidate, the slow part of the one-stage sampler.
    // Accepted candidates past the 256th (of the last step) go out too: the packer puts them in
    // a 65th word, which no one reads (the core's SAMPLE ends with the 64th).
    reg  [11:0] cr [0:NC-1];
    reg  [NC-1:0] okr;
    reg  [8:0]  count;         // coefficients given out
    assign finished = count[8];
    function [3:0] ones;       // accepted among the first m of x
        input [NC-1:0] x;
        input integer m;
        integer b, t;
        reg cy, nx;
        begin
            ones = 4'd0;
            for (b = 0; b < m; b = b + 1) begin
                cy = x[b];
                for (t = 0; t < 4; t = t + 1) begin
                    nx = ones[t] ^ cy; cy = ones[t] & cy; ones[t] = nx;
                end
            end
        end
    endfunction
    reg  [3:0]  pos [0:NC];
    integer i, j;
    always @* begin
        for (i = 0; i <= NC; i = i + 1) pos[i] = ones(okr, i);
        n_out = pos[NC];
        c = 0;
        for (j = 0; j < NC; j = j + 1)
            for (i = j; i < NC; i = i + 1)
                if (okr[i] && pos[i] == j) c[12*j +: 12] = c[12*j +: 12] | cr[i];
    end

    integer k;
    always @(posedge clk) begin
        if (rst || start) begin
            md <= mode; sc <= scale; lanes <= {64*NL{1'b0}}; off <= 6'd0; nbits <= 8'd0;
            count <= 9'd0; okr <= {NC{1'b0}};
            for (k = 0; k < NC; k = k + 1) cr[k] <= 12'd0;
        end else begin
            count <= count + {5'd0, n_out};
            for (k = 0; k < NC; k = k + 1) begin okr[k] <= ok[k]; cr[k] <= cand[k]; end
            lanes <= hold ? lanes_hn : lanes_fn;
            off   <= hold ? off : end_f[5:0];
            nbits <= hold ? nbits_hn : nbits_fn;
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
    output wire               full           // a whole word will still wait next cycle: hold the sampler
);
    localparam W = 2 * NBU;
    // the sampler steps only while fewer than W will wait when its coefficients arrive (a cycle
    // later: its stage B), so at most W - 1 + 2 STEPS are ever held
    localparam AC = W + 2 * STEPS;
    reg [12*AC-1:0] acc;        // n coefficients, zeros above them
    reg [4:0]       n;
    reg [7:0]       next_index;
    reg [12*AC-1:0] merged;
    reg [4:0]       total;
    integer k;
    localparam LG = (W == 2) ? 1 : (W == 4) ? 2 : 3;   // log2 W
    // the sum as logic, and its compares with W and 2W as bit tests: carry chains here were on
    // the sampler's hold loop (n, n_in -> full -> the sampler's next state)
    function [4:0] add5;
        input [4:0] a, b;
        integer t;
        reg cy;
        begin
            cy = 1'b0;
            for (t = 0; t < 5; t = t + 1) begin
                add5[t] = a[t] ^ b[t] ^ cy;
                cy = (a[t] & b[t]) | (cy & (a[t] ^ b[t]));
            end
        end
    endfunction
    wire emit = total[4:LG] != 0;                   // total >= W
    assign full = total[4:LG+1] != 0;               // total >= 2 W: n after this cycle >= W

    // the new coefficients (zeros above n_in, as the sampler gives them) placed above the n
    // waiting: a select among constant shifts (no multiplier for 12 n). New ones come only while
    // fewer than W wait (the sampler is held while `full`, and then gives n_in = 0, c = 0).
    always @* begin
        merged = acc;
        for (k = 0; k < W; k = k + 1)
            if (n == k) merged = acc | ({{(12*AC){1'b0}}, c} << (12 * k));
        total = add5(n, {1'b0, n_in});
    end

    always @(posedge clk) begin
        word_valid <= 1'b0;
        if (rst || start) begin
            n <= 5'd0; next_index <= 8'd0; acc <= 0; word <= 0;   // nothing left (the core's wipe)
        end else if (emit) begin
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
    parameter STEPS = NBU
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
