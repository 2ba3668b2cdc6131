//! The register-tiled matmul family: one WGSL template, specialised per
//! [`TileShape`] by string substitution into a kernel with its sizes as
//! constants and its inner loops unrolled.
//!
//! The design is the one public WGSL work reached the state of the art with
//! (wgpu-mm, gpu.cpp, llama.cpp's WebGPU backend): a workgroup computes a
//! `bm x bn` output tile; each invocation keeps `tm x tn` outputs in
//! registers; per step of `bk` along k, the workgroup stages an A tile
//! stored transposed (`[bk][bm]`, so a row of A for one k is contiguous) and
//! a B tile (`[bk][bn]`) in workgroup memory, and each invocation reads
//! `tm` values of A and `tn` of B per k for `tm * tn` multiply-adds. With a
//! vector width of 4 the workgroup tiles are `vec4` arrays and an invocation
//! owns runs of 4 neighbouring rows and columns, so each read is one 16-byte
//! load; with width 1 it owns rows `ty + i * TY` and columns `tx + j * TX`.
//! The next step's global loads are issued into registers before the
//! current step's arithmetic, so their latency hides behind it.
//!
//! Operands are read through their strides (transposed, broadcast and
//! stepped views as in `shaders/matmul.wgsl`, same bindings and metadata);
//! each invocation loads runs of 4 elements along whichever of the operand's
//! two dimensions has stride 1 (k for a row-major A, m for a transposed one),
//! so neighbouring invocations read neighbouring memory. Any size works
//! without a branch per element: a row of A (column of B) past the matrix
//! reads the last one, so the outputs it feeds equal the last row's
//! (column's) and are stored there, the same value as that row's own store;
//! k past the end reads 0 through a `select`.
//!
//! Why no bound checks kept as booleans and no branch per store:
//! SwiftShader (Chromium's software WebGPU, which builds pipelines with
//! Subzero) took minutes or never finished building the earlier form of
//! these kernels, which kept one in-bounds boolean per staged element
//! across the k loop and guarded each store with an `if`. Measured on
//! SwiftShader through Vulkan natively (the build in Debian's Chromium 156),
//! pipeline build times: t32x32_2x2_k64_v1 (16 staged elements per
//! invocation) did not build in 100 s with branch-free loads and stores,
//! and built in 3.4 s once its 16 booleans became clamped rows;
//! t64x64_4x4_k16_v1 built in 17.9 s with an `if` per store and 1.0 s
//! without; t32x32_4x4_k16_v4 went from over 200 s to 0.9 s. In this form
//! every member within SwiftShader's limits builds there in under 5 s.

use std::fmt::Write;

/// One register-tiled kernel: workgroup tile, outputs per invocation, the
/// k step and the vector width, all baked into its WGSL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileShape {
    /// Its name: the kernel's entry point after `matmul_`, e.g. `t128x128_8x8_k8_v4`.
    pub name: &'static str,
    /// Output rows per workgroup.
    pub bm: u32,
    /// Output columns per workgroup.
    pub bn: u32,
    /// k per staged step.
    pub bk: u32,
    /// Output rows per invocation.
    pub tm: u32,
    /// Output columns per invocation.
    pub tn: u32,
    /// Vector width of workgroup-memory reads and accumulators: 4 or 1.
    pub vec: u32,
}

const fn shape(
    name: &'static str,
    tile: [u32; 2],
    thread: [u32; 2],
    bk: u32,
    vec: u32,
) -> TileShape {
    TileShape {
        name,
        bm: tile[0],
        bn: tile[1],
        bk,
        tm: thread[0],
        tn: thread[1],
        vec,
    }
}

/// The family, smallest tiles first. All but the last two have 64 to 256
/// invocations and at most 16 KiB of workgroup memory, WebGPU's default
/// limits (256 and 16,384 bytes); the last two, 512 invocations and 24 KiB,
/// run where the adapter allows more (desktop GPUs natively), and were the
/// fastest at n = 2048 and 4096 on an NVIDIA H200 (`tests/bench/h200_ladder.txt`).
pub const TILE_SHAPES: [TileShape; 10] = [
    shape("t32x32_4x4_k16_v4", [32, 32], [4, 4], 16, 4),
    shape("t64x64_4x4_k16_v4", [64, 64], [4, 4], 16, 4),
    shape("t64x64_8x8_k16_v4", [64, 64], [8, 8], 16, 4),
    shape("t128x64_8x4_k16_v4", [128, 64], [8, 4], 16, 4),
    shape("t128x64_8x8_k16_v4", [128, 64], [8, 8], 16, 4),
    shape("t128x128_8x8_k8_v4", [128, 128], [8, 8], 8, 4),
    shape("t128x128_8x8_k16_v4", [128, 128], [8, 8], 16, 4),
    shape("t128x128_8x8_k8_v1", [128, 128], [8, 8], 8, 1),
    shape("t128x256_8x8_k16_v4", [128, 256], [8, 8], 16, 4),
    shape("t256x128_8x8_k16_v4", [256, 128], [8, 8], 16, 4),
];

/// How many of [`TILE_SHAPES`], from the first, fit WebGPU's default limits.
pub const WEBGPU_DEFAULT_SHAPES: usize = 8;

impl TileShape {
    /// The shape a name such as `t128x128_8x8_k16_v4` spells, where its
    /// sizes fit together ([`TileShape::is_consistent`]); for exploring
    /// shapes beyond [`TILE_SHAPES`] (the name is leaked: keep to a few).
    pub fn parse(name: &str) -> Option<TileShape> {
        let rest = name.strip_prefix('t')?;
        let mut numbers = rest
            .split(['x', '_', 'k', 'v'])
            .filter(|s| !s.is_empty())
            .map(str::parse::<u32>);
        let mut next = || numbers.next()?.ok();
        let (bm, bn, tm, tn, bk, vec) = (next()?, next()?, next()?, next()?, next()?, next()?);
        if let Some(known) = TILE_SHAPES.iter().find(|s| s.name == name) {
            return Some(*known);
        }
        let spelled = format!("t{bm}x{bn}_{tm}x{tn}_k{bk}_v{vec}");
        if spelled != name || [bm, bn, tm, tn, bk, vec].contains(&0) {
            return None;
        }
        let shape = TileShape {
            name: Box::leak(spelled.into_boxed_str()),
            bm,
            bn,
            bk,
            tm,
            tn,
            vec,
        };
        shape.is_consistent().then_some(shape)
    }

    /// Invocations per workgroup along columns (x) and rows (y).
    pub fn threads(&self) -> (u32, u32) {
        (self.bn / self.tn, self.bm / self.tm)
    }

    /// Bytes of workgroup memory: both staged tiles.
    pub fn workgroup_bytes(&self) -> u32 {
        4 * self.bk * (self.bm + self.bn)
    }

    /// Whether its sizes fit together: whole vectors, whole runs of 4 per
    /// loading invocation, and the name they spell.
    pub fn is_consistent(&self) -> bool {
        let sizes = [self.bm, self.bn, self.bk, self.tm, self.tn, self.vec];
        if sizes.contains(&0)
            || !self.bm.is_multiple_of(self.tm)
            || !self.bn.is_multiple_of(self.tn)
        {
            return false;
        }
        let (tx, ty) = self.threads();
        let threads = tx * ty;
        (self.vec == 1 || self.vec == 4)
            && self.tm.is_multiple_of(self.vec)
            && self.tn.is_multiple_of(self.vec)
            && self.bk.is_multiple_of(4)
            && self.bm.is_multiple_of(4)
            && self.bn.is_multiple_of(4)
            && (self.bm * self.bk / 4).is_multiple_of(threads)
            && (self.bn * self.bk / 4).is_multiple_of(threads)
            && self.name
                == format!(
                    "t{}x{}_{}x{}_k{}_v{}",
                    self.bm, self.bn, self.tm, self.tn, self.bk, self.vec
                )
    }

    /// Whether a device with these limits can run it.
    pub fn fits(&self, limits: &wgpu::Limits) -> bool {
        let (tx, ty) = self.threads();
        tx * ty <= limits.max_compute_invocations_per_workgroup
            && tx <= limits.max_compute_workgroup_size_x
            && ty <= limits.max_compute_workgroup_size_y
            && self.workgroup_bytes() <= limits.max_compute_workgroup_storage_size
    }

    /// Its WGSL entry point, `matmul_<name>`.
    pub fn entry_point(&self) -> String {
        format!("matmul_{}", self.name)
    }

    /// Its whole WGSL module.
    pub fn wgsl(&self) -> String {
        let (tx, ty) = self.threads();
        let threads = tx * ty;
        let v = self.vec;
        let (elem, per_row_a, per_row_b) = if v == 4 {
            ("vec4<f32>", self.bm / 4, self.bn / 4)
        } else {
            ("f32", self.bm, self.bn)
        };
        // Each invocation's share of a staged step, per operand.
        let elems_a = self.bm * self.bk / threads;
        let elems_b = self.bn * self.bk / threads;
        let mut src = String::new();
        let w = &mut src;
        // `write!` into a String cannot fail.
        let _ = writeln!(
            w,
            "{HEADER}\n\
             const BM: u32 = {}u;\nconst BN: u32 = {}u;\nconst BK: u32 = {}u;\n\
             const TX: u32 = {tx}u;\nconst TY: u32 = {ty}u;\nconst THREADS: u32 = {threads}u;\n\
             const EA: u32 = {elems_a}u;\nconst EB: u32 = {elems_b}u;\n\
             var<workgroup> a_tile: array<{elem}, {}>;\nvar<workgroup> b_tile: array<{elem}, {}>;\n\
             {SLOT}\n\
             @compute @workgroup_size({tx}, {ty})\nfn {}(\n{PARAMS}\n{PROLOGUE}",
            self.bm,
            self.bn,
            self.bk,
            self.bk * per_row_a,
            self.bk * per_row_b,
            self.entry_point()
        );
        // Per operand: its name, elements, span, origin, last row, stride
        // across k, buffer, per-row tile width.
        let ops = [
            (
                "a", elems_a, "BM", "row0", "m_last", "a_sr", "lhs", per_row_a,
            ),
            (
                "b", elems_b, "BN", "col0", "n_last", "b_sn", "rhs", per_row_b,
            ),
        ];
        // Element `e` of each operand at step `t` into the registers
        // (`{op}_s{e}`: its place in the tile; `{op}_o{e}`: its row's
        // offset): rows (columns of B) past the matrix read its last one,
        // so those outputs equal the last row's (column's) and their stores
        // land there with the same value; k past the end reads 0.
        let load = |w: &mut String, t: &str| {
            for (op, elems, _, _, _, _, buffer, _) in ops {
                each(w, elems, |e| {
                    format!(
                        "let kc = {t} + {op}_s{e}.y;\n\
                         let at = {op}_base + {op}_o{e} + i32(min(kc, k_last)) * {op}_sk;\n\
                         {op}_next[{e}] = select(0.0, {buffer}[min(u32(at), {buffer}_last)], kc < d.k);"
                    )
                });
            }
        };
        // The registers into the tiles: A transposed, [k][m]; B as [k][n].
        let stage = |w: &mut String| {
            for (op, elems, _, _, _, _, _, per_row) in ops {
                each(w, elems, |e| {
                    let s = format!("{op}_s{e}");
                    match v {
                        4 => format!(
                            "{op}_tile[{s}.y * {per_row}u + {s}.x / 4u][{s}.x % 4u] = {op}_next[{e}];"
                        ),
                        _ => format!("{op}_tile[{s}.y * {per_row}u + {s}.x] = {op}_next[{e}];"),
                    }
                });
            }
        };
        // Each element's place, kept for the whole kernel. (No bound
        // checks kept as booleans: see the module's note on SwiftShader.)
        for (op, elems, span, origin, last, sr, _, _) in ops {
            for e in 0..elems {
                let _ = writeln!(
                    w,
                    "    let {op}_s{e} = slot({e}u, flat, {span}, {op}_along_k);\n\
                     \x20   let {op}_o{e} = i32(min({origin} + {op}_s{e}.x, {last})) * {sr};"
                );
            }
        }
        let _ = writeln!(
            w,
            "    var a_next: array<f32, EA>;\n\
             \x20   var b_next: array<f32, EB>;\n\
             \x20   for (var b = wid.z; b < d.batch; b += groups.z) {{\n\
             \x20       let a_base = a_off + i32(b) * a_sb;\n\
             \x20       let b_base = b_off + i32(b) * b_sb;"
        );
        // The accumulators: tm rows of tn / vec vectors (or scalars).
        let cols = self.tn / v;
        let zero = if v == 4 { "vec4<f32>(0.0)" } else { "0.0" };
        for i in 0..self.tm {
            for j in 0..cols {
                let _ = writeln!(w, "        var acc{i}_{j} = {zero};");
            }
        }
        load(w, "0u");
        let _ = writeln!(w, "        for (var t = 0u; t < d.k; t += BK) {{");
        stage(w);
        let _ = writeln!(
            w,
            "            workgroupBarrier();\n            if t + BK < d.k {{"
        );
        load(w, "t + BK");
        let _ = writeln!(
            w,
            "            }}\n            for (var kk = 0u; kk < BK; kk++) {{"
        );
        if v == 4 {
            // Rows 4 * (c * TY + ty) + 0..4 for c < tm / 4; columns likewise.
            for c in 0..self.tm / 4 {
                let _ = writeln!(
                    w,
                    "                let a{c} = a_tile[kk * {per_row_a}u + {c}u * TY + ty];"
                );
            }
            for c in 0..cols {
                let _ = writeln!(
                    w,
                    "                let b{c} = b_tile[kk * {per_row_b}u + {c}u * TX + tx];"
                );
            }
            for i in 0..self.tm {
                for j in 0..cols {
                    let _ = writeln!(
                        w,
                        "                acc{i}_{j} = fma(vec4<f32>(a{}[{}]), b{j}, acc{i}_{j});",
                        i / 4,
                        i % 4
                    );
                }
            }
        } else {
            for i in 0..self.tm {
                let _ = writeln!(
                    w,
                    "                let a{i} = a_tile[kk * {per_row_a}u + {i}u * TY + ty];"
                );
            }
            for j in 0..self.tn {
                let _ = writeln!(
                    w,
                    "                let b{j} = b_tile[kk * {per_row_b}u + {j}u * TX + tx];"
                );
            }
            for i in 0..self.tm {
                for j in 0..self.tn {
                    let _ = writeln!(
                        w,
                        "                acc{i}_{j} = fma(a{i}, b{j}, acc{i}_{j});"
                    );
                }
            }
        }
        let _ = writeln!(
            w,
            "            }}\n            workgroupBarrier();\n        }}"
        );
        // Stores into the contiguous [batch, m, n], rows and columns past
        // the matrix clamped to its last (the same value lands there):
        // no branch per output.
        for j in 0..self.tn {
            let col = if v == 4 {
                format!("4u * ({}u * TX + tx) + {}u", j / 4, j % 4)
            } else {
                format!("{j}u * TX + tx")
            };
            let _ = writeln!(w, "        let c{j} = min(col0 + {col}, n_last);");
        }
        for i in 0..self.tm {
            let row = if v == 4 {
                format!("4u * ({}u * TY + ty) + {}u", i / 4, i % 4)
            } else {
                format!("{i}u * TY + ty")
            };
            let _ = writeln!(
                w,
                "        let o{i} = (b * d.m + min(row0 + {row}, m_last)) * d.n;"
            );
            for j in 0..self.tn {
                let value = if v == 4 {
                    format!("acc{i}_{}[{}]", j / 4, j % 4)
                } else {
                    format!("acc{i}_{j}")
                };
                let _ = writeln!(w, "        out[o{i} + c{j}] = {value};");
            }
        }
        let _ = writeln!(w, "    }}\n}}");
        src
    }
}

/// The WGSL statements `body(e)` makes for each element `e` in
/// `0..count`, each in its own block.
fn each(w: &mut String, count: u32, body: impl Fn(u32) -> String) {
    for e in 0..count {
        let _ = writeln!(w, "        {{");
        for line in body(e).lines() {
            let _ = writeln!(w, "            {line}");
        }
        let _ = writeln!(w, "        }}");
    }
}

const HEADER: &str = "\
// Generated by crates/wgpu/src/matmul_tiled.rs: one register-tiled kernel
// of the family. Bindings and metadata as shaders/matmul.wgsl:
// lhs (0), rhs (1), out (2), metadata (3) =
// [batch, m, k, n, lhs offset, lhs batch/row/col strides,
//  rhs offset, rhs batch/row/col strides], strides i32 bit-cast.

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

fn stride(word: u32) -> i32 {
    return bitcast<i32>(metadata[word]);
}
";

/// Where element `e` of an invocation's share of a staged tile lies:
/// (row of A or column of B within the tile, k within the step). Elements
/// come in runs of 4 along the operand's unit-stride dimension; run `g` of
/// the tile is invocation `g % THREADS`'s `(g / THREADS)`-th.
const SLOT: &str = "\
fn slot(e: u32, flat: u32, span: u32, along_k: bool) -> vec2<u32> {
    let run = flat + (e / 4u) * THREADS;
    let j = e % 4u;
    let across = vec2<u32>((run % (span / 4u)) * 4u + j, run / (span / 4u));
    let along = vec2<u32>(run / (BK / 4u), (run % (BK / 4u)) * 4u + j);
    return select(across, along, along_k);
}
";

const PARAMS: &str = "\
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(local_invocation_index) flat: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {";

// Loop bounds and branches around barriers depend on metadata and workgroup
// ids only: uniform, so every invocation reaches every barrier. The host
// dispatches only for a non-empty output, so m and n are at least 1.
const PROLOGUE: &str = "\
    let d = Dims(metadata[0], metadata[1], metadata[2], metadata[3]);
    let tx = lid.x;
    let ty = lid.y;
    let row0 = wid.y * BM;
    let col0 = wid.x * BN;
    let m_last = d.m - 1u;
    let n_last = d.n - 1u;
    let k_last = max(d.k, 1u) - 1u;
    let lhs_last = arrayLength(&lhs) - 1u;
    let rhs_last = arrayLength(&rhs) - 1u;
    let a_off = i32(metadata[4]);
    let a_sb = stride(5u);
    let a_sr = stride(6u);
    let a_sk = stride(7u);
    let b_off = i32(metadata[8]);
    let b_sb = stride(9u);
    let b_sk = stride(10u);
    let b_sn = stride(11u);
    // Runs of 4 go along k where k has unit stride (a row-major A, a
    // transposed B), else along the rows of A or the columns of B.
    let a_along_k = a_sk == 1 && a_sr != 1;
    let b_along_k = b_sk == 1 && b_sn != 1;";

#[cfg(test)]
mod tests {
    use super::{TILE_SHAPES, TileShape, WEBGPU_DEFAULT_SHAPES};

    #[test]
    fn tile_shape_parse_reads_names() {
        assert_eq!(TileShape::parse(TILE_SHAPES[3].name), Some(TILE_SHAPES[3]));
        let wide = TileShape::parse("t128x256_8x8_k16_v4").expect("consistent");
        assert_eq!(
            (wide.bm, wide.bn, wide.tm, wide.tn, wide.bk, wide.vec),
            (128, 256, 8, 8, 16, 4)
        );
        // 8 / 3 outputs, a vector width of 2, junk.
        assert_eq!(TileShape::parse("t128x128_8x3_k16_v4"), None);
        assert_eq!(TileShape::parse("t128x128_8x8_k16_v2"), None);
        assert_eq!(TileShape::parse("t0x128_8x8_k16_v4"), None);
        assert_eq!(TileShape::parse("128x128"), None);
    }

    #[test]
    fn tile_shapes_are_consistent_and_fit_webgpu_defaults() {
        let limits = wgpu::Limits::default();
        for (i, shape) in TILE_SHAPES.iter().enumerate() {
            assert!(shape.is_consistent(), "{shape:?}");
            assert_eq!(shape.fits(&limits), i < WEBGPU_DEFAULT_SHAPES, "{shape:?}");
        }
    }
}
