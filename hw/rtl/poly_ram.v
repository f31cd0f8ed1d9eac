// True dual-port RAM with registered reads: each port reads or writes one word per cycle.
// Written in the form Yosys maps to block RAM (RAMB18/36 on Xilinx, DP16KD on ECP5).
module poly_ram #(
    parameter WIDTH = 48,
    parameter DEPTH = 512,
    parameter AW    = 9
) (
    input  wire             clk,
    input  wire             we0,
    input  wire [AW-1:0]    addr0,
    input  wire [WIDTH-1:0] wdata0,
    output reg  [WIDTH-1:0] rdata0,
    input  wire             we1,
    input  wire [AW-1:0]    addr1,
    input  wire [WIDTH-1:0] wdata1,
    output reg  [WIDTH-1:0] rdata1
);
    // no_rw_check: the engine never uses a read of a word the other port writes in the same
    // cycle (checked in simulation by poly_engine), so Yosys need not build the collision
    // behaviour; without it synth_ecp5 finds no DP16KD for the two-port form and builds the
    // banks from flip-flops
    (* no_rw_check *) reg [WIDTH-1:0] mem [0:DEPTH-1];

    always @(posedge clk) begin
        if (we0) mem[addr0] <= wdata0;
        rdata0 <= mem[addr0];
    end

    always @(posedge clk) begin
        if (we1) mem[addr1] <= wdata1;
        rdata1 <= mem[addr1];
    end
endmodule
