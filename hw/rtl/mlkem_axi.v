// AXI wrapper of mlkem_core: AXI4-Lite control/status, 64-bit AXI4-Stream in and out.
//
// A command (AXI4-Lite write to CMD: bits [1:0] op 0 keygen / 1 encaps / 2 decaps, bits [10:8]
// K = 2, 3, 4 which must be the core's) makes the wrapper take the operation's input as a byte
// string in little-endian 64-bit beats on s_axis (keygen d || z: 8 beats; encaps ek || m;
// decaps dk || c), run the core, and send the output on m_axis with TLAST on the last beat
// (keygen ek || dk; encaps K || c; decaps K). A rejected input (ek modulus check, dk hash check)
// sends the same number of beats, all zero, and sets its STATUS bit. Output lanes are zeroed in
// the core's RAM as they leave, so no secret stays in the core after a command (mlkem_core wipes
// the rest).
// Registers (32-bit): 0x00 CMD (W), 0x04 STATUS (R: 0 busy, 1 done, 2 ek_bad, 3 dk_bad,
// 4 prog_err, 5 cmd_err), 0x08 CYCLES (core cycles of the last command, start to done),
// 0x0C IO_CYCLES (cycles of its input and output phases), 0x10 INFO (K | NBU << 8 | 1 << 16).
module mlkem_axi #(
    parameter K   = 3,
    parameter NBU = 2
) (
    input  wire        clk,
    input  wire        rst,          // active high, synchronous
    // AXI4-Lite slave
    input  wire [5:0]  s_axil_awaddr,
    input  wire        s_axil_awvalid,
    output wire        s_axil_awready,
    input  wire [31:0] s_axil_wdata,
    input  wire [3:0]  s_axil_wstrb,
    input  wire        s_axil_wvalid,
    output wire        s_axil_wready,
    output wire [1:0]  s_axil_bresp,
    output reg         s_axil_bvalid,
    input  wire        s_axil_bready,
    input  wire [5:0]  s_axil_araddr,
    input  wire        s_axil_arvalid,
    output wire        s_axil_arready,
    output reg  [31:0] s_axil_rdata,
    output wire [1:0]  s_axil_rresp,
    output reg         s_axil_rvalid,
    input  wire        s_axil_rready,
    // AXI4-Stream in
    input  wire [63:0] s_axis_tdata,
    input  wire        s_axis_tvalid,
    output wire        s_axis_tready,
    input  wire        s_axis_tlast,
    // AXI4-Stream out
    output wire [63:0] m_axis_tdata,
    output wire        m_axis_tvalid,
    input  wire        m_axis_tready,
    output wire        m_axis_tlast
);
    localparam DU = (K == 4) ? 11 : 10, DV = (K == 4) ? 5 : 4;
    localparam [9:0] EK = 48 * K, H = 96 * K + 4, C = 96 * K + 12, CLEN = 4 * (DU * K + DV),
                     M = C + CLEN, KR = M + 8;

    // ---------------- the command's byte-string regions ----------------
    localparam [9:0] EKL = 48 * K + 4, DKL = 96 * K + 12, DKCL = 96 * K + 12 + CLEN;
    // per op: {in_base0, in_len0, in_base1, in_len1, out_base0, out_len0, out_base1, out_len1}
    function [79:0] regions;
        input [1:0] o;
        case (o)
            2'd0: regions = {H, 10'd8, 10'd0, 10'd0, EK, EKL, 10'd0, DKL};
            2'd1: regions = {EK, EKL, M, 10'd4, KR, 10'd4, C, CLEN};
            default: regions = {10'd0, DKCL, 10'd0, 10'd0, KR, 10'd4, 10'd0, 10'd0};
        endcase
    endfunction
    reg  [1:0] op;
    wire [9:0] in_base1, in_len1, out_base0, out_len0, out_base1, out_len1;
    assign {in_base1, in_len1, out_base0, out_len0, out_base1, out_len1} = regions(op);
    wire [79:0] new_regions = regions(s_axil_wdata[1:0]);      // of the command being written

    // ---------------- state ----------------
    localparam W_IDLE = 3'd0, W_IN = 3'd1, W_START = 3'd2, W_RUN = 3'd3, W_PRIME = 3'd4, W_OUT = 3'd5;
    reg  [2:0]  st;
    reg         seg;            // region 0 or 1
    // the lane of this beat (input: written; output: shown, and aa1 the one after it), the
    // beats left in the region, this one included, and whether it is the last: registers, so
    // the lane RAM's address is a select on the stream handshake, not an adder (the clock)
    reg  [9:0]  aa, aa1, left;
    reg         last1;
    reg         done_r, ek_bad_r, dk_bad_r, prog_err_r, cmd_err_r;
    reg  [31:0] cycles, io_cycles;

    wire        core_busy, core_done, core_ek_bad, core_dk_bad, core_prog_err;
    wire [63:0] core_rdata;
    wire        reject = ek_bad_r | dk_bad_r | prog_err_r;

    wire        in_take  = st == W_IN && s_axis_tvalid;
    wire        out_give = st == W_OUT && m_axis_tready;
    wire        in_end   = last1;
    wire        out_end  = last1;
    wire        out_last = out_end && (seg || out_len1 == 10'd0);

    // the output read runs one beat ahead: core_rdata is always the lane of this beat
    wire [9:0]  rd_addr = !out_give ? aa : out_end ? out_base1 : aa1;

    assign s_axis_tready = st == W_IN;
    assign m_axis_tvalid = st == W_OUT;
    assign m_axis_tdata  = core_rdata;             // zeros when rejected (host_zero)
    assign m_axis_tlast  = st == W_OUT && out_last;

    // each output lane is zeroed in the core's RAM as it leaves (the core wipes the other
    // secrets itself), except keygen's ek, which dk (the second region) contains and reads again
    wire        out_wipe = out_give && (op != 2'd0 || seg);
    mlkem_core #(.K(K), .NBU(NBU)) core (.clk(clk), .rst(rst), .start(st == W_START), .op(op),
        .busy(core_busy), .done(core_done), .ek_bad(core_ek_bad), .dk_bad(core_dk_bad),
        .prog_err(core_prog_err), .host_we(in_take || out_wipe),
        .host_waddr(aa), .host_addr(st == W_IN ? aa : rd_addr),
        .host_wdata(st == W_IN ? s_axis_tdata : 64'd0), .host_rdata(core_rdata), .host_zero(reject));

    // ---------------- AXI4-Lite ----------------
    assign s_axil_awready = !s_axil_bvalid && s_axil_awvalid && s_axil_wvalid;
    assign s_axil_wready  = s_axil_awready;
    assign s_axil_bresp   = 2'b00;
    assign s_axil_arready = !s_axil_rvalid;
    assign s_axil_rresp   = 2'b00;
    wire        cmd_write = s_axil_awready && s_axil_awaddr[5:2] == 4'd0;
    wire [2:0]  cmd_k     = s_axil_wdata[10:8];
    wire        cmd_ok    = st == W_IDLE && s_axil_wdata[1:0] != 2'd3 && cmd_k == K;

    always @(posedge clk) begin
        if (rst) begin
            s_axil_bvalid <= 1'b0; s_axil_rvalid <= 1'b0;
        end else begin
            if (s_axil_awready) s_axil_bvalid <= 1'b1;
            else if (s_axil_bready) s_axil_bvalid <= 1'b0;
            if (s_axil_arvalid && s_axil_arready) begin
                s_axil_rvalid <= 1'b1;
                case (s_axil_araddr[5:2])
                    4'd1: s_axil_rdata <= {26'd0, cmd_err_r, prog_err_r, dk_bad_r, ek_bad_r, done_r,
                                           st != W_IDLE};
                    4'd2: s_axil_rdata <= cycles;
                    4'd3: s_axil_rdata <= io_cycles;
                    4'd4: s_axil_rdata <= K | (NBU << 8) | (1 << 16);
                    default: s_axil_rdata <= 32'd0;
                endcase
            end else if (s_axil_rready) s_axil_rvalid <= 1'b0;
        end
    end

    // ---------------- command flow ----------------
    always @(posedge clk) begin
        if (rst) begin
            st <= W_IDLE; done_r <= 1'b0; ek_bad_r <= 1'b0; dk_bad_r <= 1'b0; prog_err_r <= 1'b0;
            cmd_err_r <= 1'b0; op <= 2'd0; cycles <= 32'd0; io_cycles <= 32'd0;
        end else begin
            if (cmd_write) begin
                cmd_err_r <= !cmd_ok;
                if (cmd_ok) begin
                    op <= s_axil_wdata[1:0]; st <= W_IN; seg <= 1'b0;
                    {aa, left} <= new_regions[79:60]; last1 <= 1'b0;   // (every in_len0 > 1)
                    done_r <= 1'b0; ek_bad_r <= 1'b0; dk_bad_r <= 1'b0; prog_err_r <= 1'b0;
                    cycles <= 32'd0; io_cycles <= 32'd0;
                end
            end
            case (st)
                W_IN: begin
                    io_cycles <= io_cycles + 32'd1;
                    if (in_take) begin
                        if (!in_end) begin
                            aa <= aa + 10'd1; left <= left - 10'd1; last1 <= left == 10'd2;
                        end else if (!seg && in_len1 != 10'd0) begin
                            seg <= 1'b1; aa <= in_base1; left <= in_len1; last1 <= in_len1 == 10'd1;
                        end
                        else st <= W_START;
                    end
                end
                W_START: begin st <= W_RUN; cycles <= 32'd1; end
                W_RUN: begin
                    cycles <= cycles + 32'd1;
                    if (core_done) begin
                        ek_bad_r <= core_ek_bad; dk_bad_r <= core_dk_bad; prog_err_r <= core_prog_err;
                        st <= W_PRIME; seg <= 1'b0;
                        aa <= out_base0; aa1 <= out_base0 + 10'd1; left <= out_len0; last1 <= out_len0 == 10'd1;
                    end
                end
                W_PRIME: begin st <= W_OUT; io_cycles <= io_cycles + 32'd1; end
                W_OUT: begin
                    io_cycles <= io_cycles + 32'd1;
                    if (out_give) begin
                        if (!out_end) begin
                            aa <= aa1; aa1 <= aa1 + 10'd1; left <= left - 10'd1; last1 <= left == 10'd2;
                        end else if (!seg && out_len1 != 10'd0) begin
                            seg <= 1'b1; aa <= out_base1; aa1 <= out_base1 + 10'd1; left <= out_len1;
                            last1 <= out_len1 == 10'd1;
                        end
                        else begin st <= W_IDLE; done_r <= 1'b1; end
                    end
                end
                default: ;
            endcase
        end
    end
endmodule
