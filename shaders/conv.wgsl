// The sliding-window pair convolution runs on (crates/core/src/cpu/conv.rs
// has the CPU's): im2col, [planes, h, w] to columns [planes, kh * kw,
// oh * ow] with zeros where a window reaches into the padding, and its
// adjoint col2im, columns summed back into [planes, h, w]. Convolution is
// im2col then a batched matmul; its backward is a matmul then col2im.
//
// col2im gathers rather than scatters: each output element finds the
// (i, j, y, x) that read it and sums them in the CPU's order (i, then j),
// so no two invocations write one element and the sums round as the CPU's.
//
// Bindings, group 0:
//
// | binding | name     | type                                  |
// |---------|----------|---------------------------------------|
// | 0       | src      | array<f32>, storage, read             |
// | 1       | out      | array<f32>, storage, read_write       |
// | 2       | metadata | array<u32>, storage, read (see below) |
//
// Metadata, in u32 words (crates/wgpu/src/conv.rs packs it):
//
// | word | field                                        |
// |------|----------------------------------------------|
// | 0    | numel, elements of the output                |
// | 1    | src offset (src is dense from there)         |
// | 2, 3 | h, w: the image                              |
// | 4, 5 | kh, kw: the window                           |
// | 6, 7 | stride                                       |
// | 8, 9 | padding                                      |
// | 10,11| dilation                                     |
// | 12,13| oh, ow: windows along each axis              |
//
// Dispatch: workgroups of 64 on a 2-D grid, as copy.wgsl.

const WORKGROUP_SIZE: u32 = 64u;

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> metadata: array<u32>;

// The sizes both kernels read from the metadata.
struct Geometry {
    h: u32,
    w: u32,
    kh: u32,
    kw: u32,
    oh: u32,
    ow: u32,
}

fn geometry() -> Geometry {
    return Geometry(metadata[2], metadata[3], metadata[4], metadata[5], metadata[12], metadata[13]);
}

// The output element of invocation gid, or numel where it has none.
fn element(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
    let index = gid.y * groups.x * WORKGROUP_SIZE + gid.x;
    if index >= metadata[0] || index >= arrayLength(&out) {
        return metadata[0];
    }
    return index;
}

// The image row (a = 0) or column (a = 1) tap k of window o reads, or -1
// where it falls in the padding.
fn tap(a: u32, o: u32, k: u32, size: u32) -> i32 {
    let pos = i32(o * metadata[6u + a] + k * metadata[10u + a]) - i32(metadata[8u + a]);
    return select(-1, pos, pos >= 0 && pos < i32(size));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn conv_im2col(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let index = element(gid, groups);
    if index == metadata[0] {
        return;
    }
    let g = geometry();
    // index = ((plane * kh + i) * kw + j) * oh * ow + y * ow + x
    let xo = index % g.ow;
    let y = (index / g.ow) % g.oh;
    let j = (index / (g.ow * g.oh)) % g.kw;
    let i = (index / (g.ow * g.oh * g.kw)) % g.kh;
    let plane = index / (g.ow * g.oh * g.kw * g.kh);
    let iy = tap(0u, y, i, g.h);
    let ix = tap(1u, xo, j, g.w);
    var value = 0.0;
    if iy >= 0 && ix >= 0 {
        let at = metadata[1] + (plane * g.h + u32(iy)) * g.w + u32(ix);
        if at < arrayLength(&src) {
            value = src[at];
        }
    }
    out[index] = value;
}

// The window index o whose tap k lands on image position p along axis a,
// or -1 where none does.
fn window_of(a: u32, p: u32, k: u32, windows: u32) -> i32 {
    let t = i32(p + metadata[8u + a]) - i32(k * metadata[10u + a]);
    let stride = i32(metadata[6u + a]);
    if t < 0 || t % stride != 0 || t / stride >= i32(windows) {
        return -1;
    }
    return t / stride;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn conv_col2im(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let index = element(gid, groups);
    if index == metadata[0] {
        return;
    }
    let g = geometry();
    let ix = index % g.w;
    let iy = (index / g.w) % g.h;
    let plane = index / (g.w * g.h);
    var sum = 0.0;
    for (var i = 0u; i < g.kh; i++) {
        let y = window_of(0u, iy, i, g.oh);
        if y < 0 {
            continue;
        }
        for (var j = 0u; j < g.kw; j++) {
            let xo = window_of(1u, ix, j, g.ow);
            if xo < 0 {
                continue;
            }
            let at = metadata[1] + ((plane * g.kh + i) * g.kw + j) * g.oh * g.ow + u32(y) * g.ow
                + u32(xo);
            if at < arrayLength(&src) {
                sum += src[at];
            }
        }
    }
    out[index] = sum;
}
