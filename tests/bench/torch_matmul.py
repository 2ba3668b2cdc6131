"""cuBLAS float32 matmul through PyTorch on the same card as the GPU
ladder (`gradscope bench --suite gpu`, `gpu_ladder`): n x n @ n x n at each
size, TF32 off (plain float32, what our kernels compute) and on, timed with
CUDA events (median of repeats after a warm-up). Prints a table and writes
JSON to the path given by --json.

    python3 tests/bench/torch_matmul.py --sizes 256,512,1024,2048,4096 --json out.json
"""

import argparse
import json

import torch


def time_matmul(n, tf32, repeats):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32
    gen = torch.Generator(device="cuda").manual_seed(n)
    # Several operand pairs so repeated runs are not all served from L2.
    pairs = [
        (
            torch.rand(n, n, device="cuda", generator=gen) - 0.5,
            torch.rand(n, n, device="cuda", generator=gen) - 0.5,
        )
        for _ in range(4)
    ]
    for a, b in pairs:
        torch.mm(a, b)
    torch.cuda.synchronize()
    times = []
    for i in range(repeats):
        a, b = pairs[i % len(pairs)]
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        torch.mm(a, b)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    times.sort()
    seconds = times[len(times) // 2]
    a, b = pairs[0]
    got = torch.mm(a, b).double()
    want = torch.mm(a.double(), b.double())
    rel = ((got - want).norm() / want.norm()).item()
    return {
        "n": n,
        "tf32": tf32,
        "ms": seconds * 1e3,
        "gflops": 2 * n**3 / seconds / 1e9,
        "rel_err_vs_float64": rel,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="256,512,1024,2048,4096")
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--json")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = [time_matmul(n, tf32, args.repeats) for tf32 in (False, True) for n in sizes]
    torch.backends.cuda.matmul.allow_tf32 = False
    report = {
        "device": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "matmul": rows,
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    print(f"cuBLAS via torch {torch.__version__} on {report['device']}")
    print(f"{'kernel':<14}{'n':>6}{'ms':>11}{'GFLOP/s':>11}{'rel err':>11}")
    for r in rows:
        name = "cublas_tf32" if r["tf32"] else "cublas_fp32"
        print(f"{name:<14}{r['n']:>6}{r['ms']:>11.4f}{r['gflops']:>11.1f}{r['rel_err_vs_float64']:>11.2e}")


if __name__ == "__main__":
    main()
