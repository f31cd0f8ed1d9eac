// Every input of modq.vh's functions against the % operator, at time 0 (test_modq.py reads the
// counts): modq_red24 (both steps) on all 2^24 inputs; modq_sdiv128, modq_add and modq_sub on
// all inputs below q.
module modq_check (
    output reg [31:0] red_n,
    output reg [31:0] red_bad,
    output reg [31:0] small_n,
    output reg [31:0] small_bad
);
`include "modq.vh"
    integer x, y;
    initial begin
        red_n = 0; red_bad = 0; small_n = 0; small_bad = 0;
        for (x = 0; x < (1 << 24); x = x + 1) begin
            if (modq_red24_r(x[13:0], modq_red24_q(x[23:0])) != x % 3329) red_bad = red_bad + 1;
            red_n = red_n + 1;
        end
        for (x = 0; x < 3329; x = x + 1) begin
            // 2^-7 = 3303 mod q
            if (modq_sdiv128(x[11:0], 1'b0) != (x * 3303) % 3329) small_bad = small_bad + 1;
            if (modq_sdiv128(x[11:0], 1'b1) != ((3329 - x) * 3303) % 3329) small_bad = small_bad + 1;
            small_n = small_n + 2;
            for (y = 0; y < 3329; y = y + 1) begin
                if (modq_add(x[11:0], y[11:0]) != (x + y) % 3329) small_bad = small_bad + 1;
                if (modq_sub(x[11:0], y[11:0]) != (x + 3329 - y) % 3329) small_bad = small_bad + 1;
                small_n = small_n + 2;
            end
        end
    end
endmodule
