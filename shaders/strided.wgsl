// What the strided kernels share, prepended to their source when it calls
// strided_offset (crates/wgpu/src/pipeline.rs): the storage offset of a
// row-major position. Each including shader declares
// `metadata: array<u32>`. This file alone has no entry point.

// The offset, from the layout's own offset, of row-major position `index`
// over `rank` dimensions: sizes at metadata word `shapes`, strides (i32
// bit-cast) at word `strides`, coordinates peeled innermost first.
fn strided_offset(index: u32, rank: u32, shapes: u32, strides: u32) -> i32 {
    var rest = index;
    var at = 0i;
    for (var k = rank; k > 0u; k--) {
        let d = k - 1u;
        let size = metadata[shapes + d];
        at += i32(rest % size) * bitcast<i32>(metadata[strides + d]);
        rest = rest / size;
    }
    return at;
}
