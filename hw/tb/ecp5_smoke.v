// The smallest block of the core's arithmetic, for the ECP5 place-and-route smoke test in make
// check (hw/scripts/report.py --ecp5-smoke): a product of two values below q reduced mod q
// (modq.vh, as poly_engine does it), registered on both sides and split by the same pipeline
// register, so nextpnr reports a register-to-register Fmax.
module modq_smoke (
    input  wire        clk,
    input  wire [11:0] a,
    input  wire [11:0] b,
    output reg  [11:0] y
);
`include "modq.vh"
    reg [11:0] ra, rb;
    reg [23:0] p;
    reg [13:0] plo;
    reg [12:0] qe;
    always @(posedge clk) begin
        ra  <= a;
        rb  <= b;
        p   <= ra * rb;
        plo <= p[13:0];
        qe  <= modq_red24_q(p);
        y   <= modq_red24_r(plo, qe);
    end
endmodule
