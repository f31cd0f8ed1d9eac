// The sources of mlkem_axi (the core and its AXI wrapper), in compile order: the one list that
// the simulation harness (nuri_dev.hwsim) and the synthesis report (hw/scripts/report.py) read.
keccak_f1600.v
keccak_sponge.v
sampler.v
codec.v
poly_ram.v
poly_engine.v
mlkem_core.v
mlkem_axi.v
