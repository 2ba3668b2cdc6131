//! Comparisons and logical ops: results are bool and never need a gradient,
//! so they are plain functions, not recorded ops.
