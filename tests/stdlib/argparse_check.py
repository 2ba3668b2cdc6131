import argparse
parser = argparse.ArgumentParser(prog="train", description="Train a model")
parser.add_argument("data")
parser.add_argument("--batch-size", type=int, default=64, metavar="N")
parser.add_argument("--lr", type=float, default=1.0)
parser.add_argument("--no-cuda", action="store_true")
parser.add_argument("--layers", type=int, nargs="+", default=[8])
parser.add_argument("--optim", choices=["sgd", "adam"], default="sgd")
args = parser.parse_args(["mnist", "--batch-size", "32", "--layers", "4", "2", "--optim=adam"])
print(args)
print(args.batch_size * 2, args.no_cuda, vars(args)["lr"])
args, rest = parser.parse_known_args(["x", "--epochs", "3"])
print(args.data, rest)
print(parser.format_usage(), end="")
try:
    parser.parse_args(["x", "--optim", "rmsprop"])
except SystemExit as e:
    print("exit", e.code)
