# Sealed video: the benchmark table (10 s testsrc2 clips at 640x480, 1280x720, 1920x1080 as raw
# YUV 4:2:0, MPEG-4 Part 2 and H.264; seal+open through the Python API, the CLI and nuri video) beside
# the work's seconds. `make video-bench` is the full sweep (about 2 GB of clips in build/video-bench);
# the check smoke runs it on 1 s 160x120 clips, one run.
.PHONY: video-bench check-video-bench
video-bench: bootstrap-cross python
	@mkdir -p build
	@set -o pipefail; $(PY) -m nuri_dev.videobench --dir build/video-bench | tee -a build/bench.json
	@cat build/video-bench/table.md

check-video-bench: bootstrap-cross python
	$(PY) -m nuri_dev.videobench --dir build/video-smoke --seconds 1 --sizes 160x120 --runs 1 >/dev/null
	@grep -q '160x120 | h264' build/video-smoke/table.md

CHECK_EXTRA += check-video-bench
BENCH_EXTRA += video-bench
