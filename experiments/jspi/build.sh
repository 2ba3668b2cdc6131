#!/bin/sh
# Builds the prototype: release wasm, wasm-bindgen --target web (as
# xtask/src/web.rs does), and wasm-opt -Oz with xtask's features plus
# exception handling (JSPI's wrappers use try_table/exnref). Output:
# $CARGO_TARGET_DIR/pkg (wasm-bindgen's) and $CARGO_TARGET_DIR/pkg-opt.
set -eu
cd "$(dirname "$0")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/work/main/target/jspi}"
cargo build --release --target wasm32-unknown-unknown
rm -rf "$CARGO_TARGET_DIR/pkg" "$CARGO_TARGET_DIR/pkg-opt"
wasm-bindgen --target web --no-typescript --out-dir "$CARGO_TARGET_DIR/pkg" \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/jspi_proto.wasm"
cp -r "$CARGO_TARGET_DIR/pkg" "$CARGO_TARGET_DIR/pkg-opt"
WASM_OPT="${WASM_OPT:-$(command -v wasm-opt || echo /work/main/target/tools/node_modules/.bin/wasm-opt)}"
"$WASM_OPT" -Oz --enable-simd --enable-bulk-memory --enable-sign-ext \
  --enable-nontrapping-float-to-int --enable-mutable-globals --enable-reference-types \
  --enable-multivalue --enable-exception-handling \
  "$CARGO_TARGET_DIR/pkg/jspi_proto_bg.wasm" -o "$CARGO_TARGET_DIR/pkg-opt/jspi_proto_bg.wasm"
ls -l "$CARGO_TARGET_DIR/pkg/jspi_proto_bg.wasm" "$CARGO_TARGET_DIR/pkg-opt/jspi_proto_bg.wasm"
