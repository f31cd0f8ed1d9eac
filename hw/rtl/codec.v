// ML-KEM encodings between polynomial-engine words (W = 2 NBU coefficients) and 64-bit lanes
// (FIPS 203 ByteEncode_d / ByteDecode_d, Compress_d / Decompress_d, d in {1, 4, 5, 10, 11, 12}).
// 256 coefficients of d bits are exactly 4d lanes, so a polynomial never shares a lane.
// The constant multiplications are shift-adds (no DSPs).

// Engine words in (read from the host port, one per cycle when `word_ready`), lanes out.
// d = 12 encodes without compression (ek, dk); other d compress first.
module poly_serializer #(
    parameter NBU = 2
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              start,
    input  wire [3:0]        d,
    input  wire              word_valid,
    output wire              word_ready,
    output wire              word_ready_next,   // a word offered next cycle will be taken
    input  wire [24*NBU-1:0] word,
    output wire              lane_valid,
    input  wire              lane_ready,
    output wire [63:0]       lane
);
    localparam W = 2 * NBU;
    // a lane leaves whenever 64 bits wait; a word is taken while it fits (NBU = 4: 64 + 96 bits)
    localparam AW = (64 + 12 * W > 128) ? 64 + 12 * W : 128;
`include "codec.vh"
    reg  [3:0]   dd;
    reg  [AW-1:0] acc;
    reg  [7:0]   nacc;
    reg  [12*W-1:0] enc;
    reg  [7:0]   nbits;
    integer i;

    always @* begin
        enc = 0;
        for (i = 0; i < W; i = i + 1)
            enc = enc | ({{(12*W-12){1'b0}}, (dd == 4'd12) ? word[12*i +: 12]
                                                                 : compress_d(word[12*i +: 12], dd)} << (dd * i));
        nbits = dd * W;
    end

    assign lane_valid = nacc >= 8'd64;
    assign lane       = acc[63:0];
    assign word_ready = {1'b0, nacc} + 12 * W <= AW;   // room for one more word

    wire take = word_valid && word_ready;
    wire give = lane_valid && lane_ready;
    // for a source with a one-cycle read latency (the engine's host port): request a word now
    // when the count after this cycle leaves room, so a word can arrive every cycle
    wire [7:0] nacc_next = nacc + (take ? nbits : 8'd0) - (give ? 8'd64 : 8'd0);
    assign word_ready_next = {1'b0, nacc_next} + 12 * W <= AW;
    always @(posedge clk) begin
        if (rst || start) begin
            dd <= d; acc <= {AW{1'b0}}; nacc <= 8'd0;
        end else case ({take, give})
            2'b10: begin acc <= acc | ({{(AW-12*W){1'b0}}, enc} << nacc); nacc <= nacc + nbits; end
            2'b01: begin acc <= acc >> 64; nacc <= nacc - 8'd64; end
            2'b11: begin
                acc <= (acc >> 64) | ({{(AW-12*W){1'b0}}, enc} << (nacc - 8'd64));
                nacc <= nacc - 8'd64 + nbits;
            end
            default: ;
        endcase
    end
endmodule

// Lanes in, engine words out (to the host write port), decompressing for d < 12. For d = 12 it
// flags any field >= q (FIPS 203 7.2 modulus check on ek) in `bad`, which stays set until start.
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
`include "codec.vh"
    reg  [3:0]   dd;
    reg  [127:0] acc;
    reg  [7:0]   nacc;
    reg  [7:0]   next_index;
    reg  [24*NBU-1:0] unenc;
    reg          over;
    reg  [11:0]  field;
    integer i;

    wire [7:0] nbits = dd * W;
    localparam [8:0] WORDS = 256 / W;
    wire       emit  = nacc >= nbits && {1'b0, next_index} != WORDS;
    assign lane_ready = nacc <= 8'd64;

    always @* begin
        unenc = 0; over = 1'b0;
        for (i = 0; i < W; i = i + 1) begin
            field = (acc >> (dd * i)) & ((128'd1 << dd) - 128'd1);
            if (dd == 4'd12) begin
                unenc[12*i +: 12] = field;
                if (field >= 12'd3329) over = 1'b1;
            end else unenc[12*i +: 12] = decompress_d(field, dd);
        end
    end

    wire put = lane_valid && lane_ready;
    always @(posedge clk) begin
        word_valid <= 1'b0;
        if (rst || start) begin
            dd <= d; acc <= 128'd0; nacc <= 8'd0; next_index <= 8'd0; bad <= 1'b0;
            word <= {24*NBU{1'b0}};      // no decoded data left behind (the core's wipe)
        end else begin
            if (emit) begin
                word_valid <= 1'b1; word_index <= next_index; word <= unenc;
                next_index <= next_index + 8'd1;
                if (over) bad <= 1'b1;
            end
            case ({emit, put})
                2'b10: begin acc <= acc >> nbits; nacc <= nacc - nbits; end
                2'b01: begin acc <= acc | ({64'd0, lane} << nacc); nacc <= nacc + 8'd64; end
                2'b11: begin
                    acc <= (acc >> nbits) | ({64'd0, lane} << (nacc - nbits));
                    nacc <= nacc - nbits + 8'd64;
                end
                default: ;
            endcase
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
        .word_valid(s_word_valid), .word_ready(s_word_ready), .word_ready_next(), .word(s_word),
        .lane_valid(s_lane_valid), .lane_ready(s_lane_ready), .lane(s_lane));
    poly_deserializer #(.NBU(NBU)) des (.clk(clk), .rst(rst), .start(start), .d(d),
        .lane_valid(d_lane_valid), .lane_ready(d_lane_ready), .lane(d_lane),
        .word_valid(d_word_valid), .word_index(d_word_index), .word(d_word), .bad(d_bad));
endmodule
