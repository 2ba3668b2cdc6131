#!/bin/bash
# The GPU figures of issue 29 in one call on a lent NVIDIA machine (the
# device tool's `run`): the matmul ladder and training steps through Vulkan
# (examples/gpu_ladder.rs), cuBLAS through PyTorch at the same sizes
# (torch_matmul.py), and the matmul kernel tests against the CPU.
#
# Built here first (nothing can be built there), into .devbin/ (ignored):
#   cargo build --release -p gradscope-wgpu --example gpu_ladder
#   cargo test --release -p gradscope-wgpu --test matmul_candidates --no-run
#   cp target/release/examples/gpu_ladder target/release/deps/matmul_candidates-<hash> .devbin/
# with the Vulkan loader debs in .gl/ (the device README's recipe); the call
# carries .gl and .devbin and runs `bash tests/bench/gpu_device_run.sh`.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export VK_ICD_FILENAMES=$VK_DRIVER_FILES WGPU_BACKEND=vulkan GRADSCOPE_REQUIRE_GPU=1
SIZES=${SIZES:-256,512,1024,2048,4096}
# Tile shapes beyond the family, timed beside it where the adapter's limits
# (larger than WebGPU's defaults on a desktop GPU) allow them.
EXTRA=${EXTRA:-t128x256_8x8_k32_v4,t256x128_8x8_k32_v4,t128x256_8x16_k16_v4,t256x128_16x8_k16_v4,t256x256_8x8_k16_v4,t64x256_8x8_k16_v4}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
    --format=csv 2>&1 | tee "$OUT/nvidia_smi.txt"
echo "== ladder"
timeout 300 .devbin/gpu_ladder "$SIZES" 20 67000 "$EXTRA" 2>&1 | tee "$OUT/ladder.txt"
echo "== cublas"
PYTHONUNBUFFERED=1 timeout 120 python3 tests/bench/torch_matmul.py --sizes "$SIZES" \
    --json "$OUT/cublas.json" 2>&1 | tee "$OUT/cublas.txt"
echo "== kernel tests"
timeout 120 .devbin/matmul_candidates --test-threads=1 2>&1 | tee "$OUT/tests.txt" | tail -12
echo "== summary"
grep -E "^adapter| 4096 " "$OUT/ladder.txt"
grep -E "4096" "$OUT/cublas.txt"
grep -E "step:" "$OUT/ladder.txt"
