// Reductions over any set of axes: out[o] = fold over the reduced elements
// of output element o, for sum, max, min and prod, float32.
//
// The input is read through its layout, split by the host into kept
// dimensions (which index the output) and reduced dimensions (which are
// folded); each list arrives with size-1 dimensions dropped and dense runs
// merged. The output is contiguous in the kept dimensions' order.
//
// Bindings, group 0:
//
// | binding | name     | type                                  |
// |---------|----------|---------------------------------------|
// | 0       | src      | array<f32>, storage, read             |
// | 1       | out      | array<f32>, storage, read_write       |
// | 2       | metadata | array<u32>, storage, read (see below) |
//
// Metadata, in u32 words, with k = kept rank, r = reduced rank
// (crates/wgpu/src/reduce.rs packs it):
//
// | word                 | field                                        |
// |----------------------|----------------------------------------------|
// | 0                    | op: 0 sum, 1 max, 2 min, 3 prod (ReduceKernel::code) |
// | 1                    | out_len, elements of the output              |
// | 2                    | red_len, elements folded into each output    |
// | 3                    | src offset, in elements                      |
// | 4                    | k                                            |
// | 5                    | r                                            |
// | 6 .. 6+k             | kept shape                                   |
// | 6+k .. 6+2k          | kept strides (i32 bit-cast to u32)           |
// | 6+2k .. 6+2k+r       | reduced shape                                |
// | 6+2k+r .. 6+2k+2r    | reduced strides (i32 bit-cast to u32)        |
//
// NaN wins in max and min, as in PyTorch. An empty fold (red_len 0) gives
// the identity: 0, -inf, +inf, 1 (the core rejects max and min of nothing
// with PyTorch's error before it gets here).
//
// Entry points:
// - reduce_tree: one workgroup of 256 per output element (workgroup index
//   gy * x + gx on a 2-D grid); each invocation folds every 256th element,
//   then the workgroup folds its 256 partials as a tree in shared memory.
// - reduce_serial: one invocation per output element (workgroups of 64 on a
//   2-D grid, as copy.wgsl), for short folds over many outputs.

const TREE_SIZE: u32 = 256u;
const SERIAL_SIZE: u32 = 64u;
const HEADER: u32 = 6u;

const OP_SUM: u32 = 0u;
const OP_MAX: u32 = 1u;
const OP_MIN: u32 = 2u;
const OP_PROD: u32 = 3u;

const INF_BITS: u32 = 0x7f800000u;
const SIGN_BIT: u32 = 0x80000000u;

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> metadata: array<u32>;

// Infinity and NaN are made at run time from bit patterns held in private
// variables: WGSL's constant evaluation rejects non-finite values (Chromium's
// Tint refuses `bitcast<f32>(0x7f800000u)` outright), and a load from a
// variable is not a constant expression.
var<private> inf_bits: u32 = INF_BITS;

var<workgroup> partials: array<f32, TREE_SIZE>;

fn is_nan(x: f32) -> bool {
    return (bitcast<u32>(x) & ~SIGN_BIT) > INF_BITS;
}

fn identity(op: u32) -> f32 {
    switch op {
        case OP_MAX: {
            return -bitcast<f32>(inf_bits);
        }
        case OP_MIN: {
            return bitcast<f32>(inf_bits);
        }
        case OP_PROD: {
            return 1.0;
        }
        default: {
            return 0.0;
        }
    }
}

fn combine(op: u32, a: f32, b: f32) -> f32 {
    switch op {
        case OP_MAX: {
            if is_nan(a) {
                return a;
            }
            if is_nan(b) || b > a {
                return b;
            }
            return a;
        }
        case OP_MIN: {
            if is_nan(a) {
                return a;
            }
            if is_nan(b) || b < a {
                return b;
            }
            return a;
        }
        case OP_PROD: {
            return a * b;
        }
        default: {
            return a + b;
        }
    }
}

// The storage index of output element o's first folded element.
fn kept_base(o: u32) -> i32 {
    let k = metadata[4];
    return i32(metadata[3]) + strided_offset(o, k, HEADER, HEADER + k);
}

// The offset of folded element j from the base.
fn reduced_offset(j: u32) -> i32 {
    let k = metadata[4];
    let r = metadata[5];
    let shapes = HEADER + 2u * k;
    return strided_offset(j, r, shapes, shapes + r);
}

// Element j of output o's fold; the host checked the layout against src,
// and the kernel checks again instead of relying on robust access.
fn load(base: i32, j: u32, op: u32) -> f32 {
    let at = u32(base + reduced_offset(j));
    if at < arrayLength(&src) {
        return src[at];
    }
    return identity(op);
}

@compute @workgroup_size(TREE_SIZE)
fn reduce_tree(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    // Uniform across the workgroup, so the barriers below stay in uniform
    // control flow.
    let o = wid.y * groups.x + wid.x;
    let op = metadata[0];
    let out_len = metadata[1];
    let red_len = metadata[2];
    if o >= out_len {
        return;
    }
    let base = kept_base(o);
    var acc = identity(op);
    for (var j = lid; j < red_len; j += TREE_SIZE) {
        acc = combine(op, acc, load(base, j, op));
    }
    partials[lid] = acc;
    workgroupBarrier();
    for (var width = TREE_SIZE / 2u; width > 0u; width = width / 2u) {
        if lid < width {
            partials[lid] = combine(op, partials[lid], partials[lid + width]);
        }
        workgroupBarrier();
    }
    if lid == 0u && o < arrayLength(&out) {
        out[o] = partials[0];
    }
}

@compute @workgroup_size(SERIAL_SIZE)
fn reduce_serial(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let o = gid.y * groups.x * SERIAL_SIZE + gid.x;
    let op = metadata[0];
    if o >= metadata[1] || o >= arrayLength(&out) {
        return;
    }
    let red_len = metadata[2];
    let base = kept_base(o);
    var acc = identity(op);
    for (var j = 0u; j < red_len; j++) {
        acc = combine(op, acc, load(base, j, op));
    }
    out[o] = acc;
}
