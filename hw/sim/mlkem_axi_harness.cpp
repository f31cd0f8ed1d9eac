// Verilator harness for nuri.hw: drives mlkem_axi (AXI4-Lite command, AXI4-Stream byte strings)
// for requests on stdin and answers on stdout, so Python can use the simulated core like a board.
// Request:  op (1 byte: 0 keygen, 1 encaps, 2 decaps), input length n (4 bytes LE), n bytes.
// Answer:   status, core cycles, I/O cycles, output length m (4 bytes LE each), m bytes.
// An op byte of 0xFF (or end of input) ends the process.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "Vmlkem_axi.h"
#include "verilated.h"

static Vmlkem_axi *top;

static void tick()
{
    top->clk = 1;
    top->eval();
    top->clk = 0;
    top->eval();
}

static void lite_write(uint32_t addr, uint32_t value)
{
    top->s_axil_awaddr = addr;
    top->s_axil_wdata = value;
    top->s_axil_wstrb = 0xF;
    top->s_axil_awvalid = 1;
    top->s_axil_wvalid = 1;
    top->s_axil_bready = 1;
    for (;;) {
        top->eval();
        bool hs = top->s_axil_awready;
        tick();
        if (hs) break;
    }
    top->s_axil_awvalid = 0;
    top->s_axil_wvalid = 0;
    for (;;) { // the write response
        top->eval();
        bool b = top->s_axil_bvalid;
        tick();
        if (b) break;
    }
    top->s_axil_bready = 0;
}

static uint32_t lite_read(uint32_t addr)
{
    top->s_axil_araddr = addr;
    top->s_axil_arvalid = 1;
    top->s_axil_rready = 1;
    for (;;) {
        top->eval();
        bool hs = top->s_axil_arready;
        tick();
        if (hs) break;
    }
    top->s_axil_arvalid = 0;
    for (;;) {
        top->eval();
        if (top->s_axil_rvalid) {
            uint32_t v = top->s_axil_rdata;
            tick();
            top->s_axil_rready = 0;
            return v;
        }
        tick();
    }
}

static bool read_all(void *p, size_t n) { return fread(p, 1, n, stdin) == n; }

static void put32(uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    fwrite(b, 1, 4, stdout);
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    top = new Vmlkem_axi;
    top->clk = 0;
    top->rst = 1;
    for (int i = 0; i < 4; i++) tick();
    top->rst = 0;
    tick();
    const uint32_t k = lite_read(0x10) & 0xFF;
    for (;;) {
        uint8_t op;
        uint8_t lenb[4];
        if (!read_all(&op, 1) || op == 0xFF || !read_all(lenb, 4)) break;
        uint32_t n = lenb[0] | lenb[1] << 8 | lenb[2] << 16 | (uint32_t)lenb[3] << 24;
        std::vector<uint8_t> in(n);
        if (!read_all(in.data(), n) || n % 8) break;
        lite_write(0x00, op | k << 8);
        std::vector<uint8_t> out;
        size_t sent = 0;
        uint64_t guard = 0;
        for (;;) {
            top->s_axis_tvalid = sent < n;
            uint64_t beat = 0;
            for (int b = 0; b < 8 && sent < n; b++) beat |= (uint64_t)in[sent + b] << (8 * b);
            top->s_axis_tdata = beat;
            top->s_axis_tlast = sent + 8 == n;
            top->m_axis_tready = 1;
            top->eval();
            bool take = top->s_axis_tvalid && top->s_axis_tready;
            bool give = top->m_axis_tvalid;
            bool last = give && top->m_axis_tlast;
            uint64_t data = top->m_axis_tdata;
            tick();
            if (take) sent += 8;
            if (give)
                for (int b = 0; b < 8; b++) out.push_back((uint8_t)(data >> (8 * b)));
            if (last) break;
            if (++guard > 10000000) break; // a refused command sends nothing
        }
        top->s_axis_tvalid = 0;
        put32(lite_read(0x04));
        put32(lite_read(0x08));
        put32(lite_read(0x0C));
        put32((uint32_t)out.size());
        fwrite(out.data(), 1, out.size(), stdout);
        fflush(stdout);
    }
    top->final();
    delete top;
    return 0;
}
