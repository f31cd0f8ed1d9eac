// ML-KEM samplers on the sponge's 64-bit output lanes (FIPS 203 Algorithms 7 and 8), producing
// up to two coefficients a cycle for poly_packer.
//   mode 0, SampleNTT: 3 bytes -> candidates d1 = b0 + 256 (b1 mod 16), d2 = b1/16 + 16 b2, each
//           kept when below q (XOF = SHAKE128(rho || j || i)). Rejection depends only on public rho.
//   mode 1, SamplePolyCBD eta = 2: 4 bits -> (x0 + x1) - (x2 + x3) mod q  (PRF = SHAKE256(sigma||N))
//   mode 2, SamplePolyCBD eta = 3: 6 bits -> (x0 + x1 + x2) - (x3 + x4 + x5) mod q
// Stops taking lanes after 256 coefficients. The CBD path has no data-dependent control flow.
module sampler (
    input  wire        clk,
    input  wire        rst,
    input  wire        start,
    input  wire [1:0]  mode,
    input  wire        lane_valid,
    output wire        lane_ready,
    input  wire [63:0] lane,
    output reg  [1:0]  n_out,        // coefficients valid this cycle (0..2)
    output reg  [11:0] c0,
    output reg  [11:0] c1,
    output wire        finished
);
    reg  [1:0]   md;
    reg  [127:0] bits;       // unread input bits, oldest in the low end
    reg  [7:0]   nbits;
    reg  [8:0]   count;      // coefficients produced
    assign finished = count[8];

    wire [7:0] take = (md == 2'd0) ? 8'd24 : (md == 2'd1) ? 8'd8 : 8'd12;   // bits per step
    wire       step = !finished && nbits >= take;
    assign lane_ready = !finished && nbits <= 8'd64;

    function [11:0] cbd;
        input [5:0] x;
        input       eta3;
        reg [2:0] a, b;
        begin
            if (eta3) begin a = x[0] + x[1] + x[2]; b = x[3] + x[4] + x[5]; end
            else      begin a = x[0] + x[1];        b = x[2] + x[3]; end
            cbd = (a >= b) ? a - b : 12'd3329 - (b - a);
        end
    endfunction

    wire [11:0] d1 = {bits[11:8], bits[7:0]};
    wire [11:0] d2 = {bits[23:16], bits[15:12]};
    wire ok1 = d1 < 12'd3329;
    wire ok2 = d2 < 12'd3329;

    always @* begin
        n_out = 2'd0; c0 = 12'd0; c1 = 12'd0;
        if (step) begin
            if (md == 2'd0) begin
                // never more than 256: the second candidate is dropped when the first fills it
                if (ok1 && ok2 && count != 9'd255) begin n_out = 2'd2; c0 = d1; c1 = d2; end
                else if (ok1) begin n_out = 2'd1; c0 = d1; end
                else if (ok2) begin n_out = 2'd1; c0 = d2; end
            end else if (md == 2'd1) begin
                n_out = 2'd2; c0 = cbd(bits[3:0], 1'b0); c1 = cbd(bits[7:4], 1'b0);
            end else begin
                n_out = 2'd2; c0 = cbd(bits[5:0], 1'b1); c1 = cbd(bits[11:6], 1'b1);
            end
        end
    end

    always @(posedge clk) begin
        if (rst || start) begin
            md <= mode; bits <= 128'd0; nbits <= 8'd0; count <= 9'd0;
        end else begin
            // consume a step, then append the lane above what is left
            if (step) count <= count + n_out;
            case ({step, lane_valid && lane_ready})
                2'b10: begin bits <= bits >> take; nbits <= nbits - take; end
                2'b01: begin bits <= bits | ({64'd0, lane} << nbits); nbits <= nbits + 8'd64; end
                2'b11: begin
                    bits <= (bits >> take) | ({64'd0, lane} << (nbits - take));
                    nbits <= nbits - take + 8'd64;
                end
                default: ;
            endcase
        end
    end
endmodule

// Packs a stream of up to two coefficients a cycle into words of W = 2 NBU coefficients for the
// polynomial engine's host port.
module poly_packer #(
    parameter NBU = 2
) (
    input  wire               clk,
    input  wire               rst,
    input  wire               start,
    input  wire [1:0]         n_in,
    input  wire [11:0]        c0,
    input  wire [11:0]        c1,
    output reg                word_valid,
    output reg  [7:0]         word_index,
    output reg  [24*NBU-1:0]  word
);
    localparam W = 2 * NBU;
    reg [12*(W+2)-1:0] acc;
    reg [3:0]          n;
    reg [7:0]          next_index;
    reg [12*(W+2)-1:0] merged;
    reg [3:0]          total;

    always @* begin
        merged = acc;
        if (n_in >= 2'd1) merged[12*n +: 12] = c0;
        if (n_in == 2'd2) merged[12*(n+1) +: 12] = c1;
        total = n + n_in;
    end

    always @(posedge clk) begin
        word_valid <= 1'b0;
        if (rst || start) begin
            n <= 4'd0; next_index <= 8'd0; acc <= 0;
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
    parameter NBU = 2
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        init,
    input  wire [1:0]  hash_mode,
    input  wire [1:0]  sample_mode,
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
    wire [1:0]  n;
    wire [11:0] c0, c1;
    wire [1599:0] st;
    wire blk;
    keccak_sponge sp (.clk(clk), .rst(rst), .init(init), .mode(hash_mode), .in_valid(in_valid),
                      .in_ready(in_ready), .in_data(in_data), .in_bytes(in_bytes), .in_last(in_last),
                      .out_valid(ov), .out_ready(ordy), .out_data(od), .block_ready(blk), .state(st));
    sampler sm (.clk(clk), .rst(rst), .start(init), .mode(sample_mode), .lane_valid(ov),
                .lane_ready(ordy), .lane(od), .n_out(n), .c0(c0), .c1(c1), .finished(finished));
    poly_packer #(.NBU(NBU)) pk (.clk(clk), .rst(rst), .start(init), .n_in(n), .c0(c0), .c1(c1),
                                 .word_valid(word_valid), .word_index(word_index), .word(word));
endmodule
