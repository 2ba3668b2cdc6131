// Batched matrix products: out[b] = a[b] @ b[b] for a of shape [batch, m, k]
// and b of shape [batch, k, n], each read through its strides (a transposed
// operand is just swapped row and column strides; batch stride 0 repeats
// one matrix); out is a contiguous [batch, m, n].
//
// Bindings, group 0:
//
// | binding | name     | type                                  |
// |---------|----------|---------------------------------------|
// | 0       | lhs      | array<f32>, storage, read             |
// | 1       | rhs      | array<f32>, storage, read             |
// | 2       | out      | array<f32>, storage, read_write       |
// | 3       | metadata | array<u32>, storage, read (see below) |
//
// Metadata, in u32 words (crates/wgpu/src/matmul.rs packs it); strides are
// in elements, i32 bit-cast to u32:
//
// | word | field          | word | field          |
// |------|----------------|------|----------------|
// | 0    | batch          | 6    | lhs row stride |
// | 1    | m              | 7    | lhs col stride |
// | 2    | k              | 8    | rhs offset     |
// | 3    | n              | 9    | rhs batch stride |
// | 4    | lhs offset     | 10   | rhs row stride |
// | 5    | lhs batch stride | 11 | rhs col stride |
//
// Three kernels, the ladder of the GPU benchmark:
// - matmul_naive: one invocation per output, 8x8 per workgroup, reading
//   both operands from storage for every multiply-add.
// - matmul_tiled: 16x16 outputs per workgroup of 16x16; 16x16 tiles of
//   both operands staged in workgroup memory, each element read once per tile.
// - matmul_blocked: 64x64 outputs per workgroup of 16x16, each invocation
//   computing 4x4 outputs (rows ly + 16i, columns lx + 16j) in registers
//   from 64x16 and 16x64 tiles in workgroup memory: four times the
//   multiply-adds per load of the tiled kernel.
//
// Grid: x covers columns, y rows (in tiles), z batches; a batch count past
// the z limit loops (b += num_workgroups.z). Every load checks its row,
// column and k against the sizes and its index against the buffer, and
// every store its row and column: nothing relies on robust access.

@group(0) @binding(0) var<storage, read> lhs: array<f32>;
@group(0) @binding(1) var<storage, read> rhs: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<storage, read> metadata: array<u32>;

struct Dims {
    batch: u32,
    m: u32,
    k: u32,
    n: u32,
}

fn dims() -> Dims {
    return Dims(metadata[0], metadata[1], metadata[2], metadata[3]);
}

fn stride(word: u32) -> i32 {
    return bitcast<i32>(metadata[word]);
}

// lhs[b, row, col], or 0 outside the matrix or the buffer.
fn load_lhs(b: u32, row: u32, col: u32, d: Dims) -> f32 {
    if row >= d.m || col >= d.k {
        return 0.0;
    }
    let at = u32(i32(metadata[4]) + i32(b) * stride(5u) + i32(row) * stride(6u) + i32(col) * stride(7u));
    if at >= arrayLength(&lhs) {
        return 0.0;
    }
    return lhs[at];
}

// rhs[b, row, col], or 0 outside the matrix or the buffer.
fn load_rhs(b: u32, row: u32, col: u32, d: Dims) -> f32 {
    if row >= d.k || col >= d.n {
        return 0.0;
    }
    let at = u32(i32(metadata[8]) + i32(b) * stride(9u) + i32(row) * stride(10u) + i32(col) * stride(11u));
    if at >= arrayLength(&rhs) {
        return 0.0;
    }
    return rhs[at];
}

fn store(b: u32, row: u32, col: u32, d: Dims, value: f32) {
    if row < d.m && col < d.n {
        let at = (b * d.m + row) * d.n + col;
        if at < arrayLength(&out) {
            out[at] = value;
        }
    }
}

@compute @workgroup_size(8, 8)
fn matmul_naive(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let d = dims();
    let row = gid.y;
    let col = gid.x;
    for (var b = wid.z; b < d.batch; b += groups.z) {
        var acc = 0.0;
        for (var i = 0u; i < d.k; i++) {
            acc += load_lhs(b, row, i, d) * load_rhs(b, i, col, d);
        }
        store(b, row, col, d, acc);
    }
}

const TILE: u32 = 16u;

var<workgroup> lhs_tile: array<f32, 256>;
var<workgroup> rhs_tile: array<f32, 256>;

@compute @workgroup_size(16, 16)
fn matmul_tiled(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let d = dims();
    let row = wid.y * TILE + lid.y;
    let col = wid.x * TILE + lid.x;
    // The loops' bounds are uniform (metadata and workgroup ids), so every
    // invocation reaches every barrier.
    for (var b = wid.z; b < d.batch; b += groups.z) {
        var acc = 0.0;
        for (var t = 0u; t < d.k; t += TILE) {
            lhs_tile[lid.y * TILE + lid.x] = load_lhs(b, row, t + lid.x, d);
            rhs_tile[lid.y * TILE + lid.x] = load_rhs(b, t + lid.y, col, d);
            workgroupBarrier();
            for (var i = 0u; i < TILE; i++) {
                acc += lhs_tile[lid.y * TILE + i] * rhs_tile[i * TILE + lid.x];
            }
            workgroupBarrier();
        }
        store(b, row, col, d, acc);
    }
}

const BLOCK: u32 = 64u;
const BLOCK_K: u32 = 16u;

// [kk][row] and [kk][col], 16 x 64 each.
var<workgroup> lhs_block: array<f32, 1024>;
var<workgroup> rhs_block: array<f32, 1024>;

@compute @workgroup_size(16, 16)
fn matmul_blocked(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(local_invocation_index) flat: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let d = dims();
    let row0 = wid.y * BLOCK;
    let col0 = wid.x * BLOCK;
    for (var b = wid.z; b < d.batch; b += groups.z) {
        var acc: array<vec4<f32>, 4>;
        for (var i = 0u; i < 4u; i++) {
            acc[i] = vec4<f32>(0.0);
        }
        for (var t = 0u; t < d.k; t += BLOCK_K) {
            // 1024 elements of each tile, four per invocation; neighbouring
            // invocations read neighbouring k (lhs) and columns (rhs).
            for (var i = 0u; i < 4u; i++) {
                let e = flat + 256u * i;
                let lr = e / BLOCK_K;
                let lc = e % BLOCK_K;
                lhs_block[lc * BLOCK + lr] = load_lhs(b, row0 + lr, t + lc, d);
                let rr = e / BLOCK;
                let rc = e % BLOCK;
                rhs_block[rr * BLOCK + rc] = load_rhs(b, t + rr, col0 + rc, d);
            }
            workgroupBarrier();
            for (var kk = 0u; kk < BLOCK_K; kk++) {
                let bv = vec4<f32>(
                    rhs_block[kk * BLOCK + lid.x],
                    rhs_block[kk * BLOCK + lid.x + 16u],
                    rhs_block[kk * BLOCK + lid.x + 32u],
                    rhs_block[kk * BLOCK + lid.x + 48u],
                );
                for (var i = 0u; i < 4u; i++) {
                    acc[i] += lhs_block[kk * BLOCK + lid.y + 16u * i] * bv;
                }
            }
            workgroupBarrier();
        }
        for (var i = 0u; i < 4u; i++) {
            let row = row0 + lid.y + 16u * i;
            for (var j = 0u; j < 4u; j++) {
                store(b, row, col0 + lid.x + 16u * j, d, acc[i][j]);
            }
        }
    }
}
