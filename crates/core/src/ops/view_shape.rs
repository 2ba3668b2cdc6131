//! Shape arithmetic shared by views, indexing, joining and factories:
//! PyTorch's `maybe_wrap_dim`, `infer_size` and size checks, each with
//! PyTorch's error.

use crate::error::{Error, Result};

/// A possibly negative dimension as an index into `rank` dimensions,
/// PyTorch's `maybe_wrap_dim`: a 0-dim tensor accepts `0` and `-1`.
pub(crate) fn wrap_dim(dim: i64, rank: usize) -> Result<usize> {
    let span = rank.max(1) as i64;
    if dim < -span || dim >= span {
        return Err(Error::DimOutOfRange { dim, rank });
    }
    Ok(if dim < 0 { dim + span } else { dim } as usize)
}

/// Several dimensions wrapped, refusing repeats as PyTorch's `dim_list_to_bitset` does.
pub(crate) fn wrap_dims(dims: &[i64], rank: usize) -> Result<Vec<usize>> {
    let mut out: Vec<usize> = Vec::with_capacity(dims.len());
    for &d in dims {
        let d = wrap_dim(d, rank)?;
        if out.contains(&d) {
            return Err(Error::DimRepeated { dim: d });
        }
        out.push(d);
    }
    Ok(out)
}

/// A `view`/`reshape` shape with at most one `-1` resolved against
/// `numel` elements, PyTorch's `infer_size`.
pub(crate) fn infer_size(shape: &[i64], numel: usize) -> Result<Vec<usize>> {
    let mut known = 1usize;
    let mut inferred = None;
    for (index, &size) in shape.iter().enumerate() {
        match size {
            -1 if inferred.is_some() => return Err(Error::ViewInferTwice),
            -1 => inferred = Some(index),
            // A size past usize (on wasm32) cannot match any tensor.
            s if s >= 0 => known = known.saturating_mul(usize::try_from(s).unwrap_or(usize::MAX)),
            s => {
                return Err(Error::ViewShapeDim {
                    size: s,
                    index,
                    shape: shape.to_vec(),
                });
            }
        }
    }
    let fits = numel == known || (inferred.is_some() && known > 0 && numel.is_multiple_of(known));
    if !fits {
        return Err(Error::ViewShape {
            shape: shape.to_vec(),
            numel,
        });
    }
    // Past the check, only a size-0 view can hold a size past usize.
    let mut out: Vec<usize> = shape
        .iter()
        .map(|&s| usize::try_from(s.max(0)).map_err(|_| Error::NumelOverflow))
        .collect::<Result<_>>()?;
    if let Some(index) = inferred {
        if known == 0 {
            return Err(Error::ViewInferEmpty {
                shape: shape.to_vec(),
            });
        }
        out[index] = numel / known;
    }
    Ok(out)
}

/// A factory's requested shape, refusing negative sizes as PyTorch's
/// `check_size_nonnegative` does.
pub(crate) fn factory_shape(shape: &[i64]) -> Result<Vec<usize>> {
    shape
        .iter()
        .map(|&size| match usize::try_from(size) {
            Ok(s) => Ok(s),
            Err(_) if size < 0 => Err(Error::NegativeDimension {
                size,
                shape: shape.to_vec(),
            }),
            // Past usize (on wasm32): no storage could hold it.
            Err(_) => Err(Error::NumelOverflow),
        })
        .collect()
}

/// Shapes as `i64`, the way PyTorch prints sizes inside messages with `-1`.
pub(crate) fn signed(shape: &[usize]) -> Vec<i64> {
    shape.iter().map(|&d| d as i64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_dim_accepts_negative_and_zero_dim() {
        assert_eq!(wrap_dim(-1, 3).ok(), Some(2));
        assert_eq!(wrap_dim(0, 0).ok(), Some(0));
        assert_eq!(wrap_dim(-1, 0).ok(), Some(0));
        assert!(wrap_dim(3, 3).is_err());
    }

    #[test]
    fn infer_size_resolves_minus_one() {
        assert_eq!(infer_size(&[2, -1], 6).ok(), Some(vec![2, 3]));
        assert_eq!(infer_size(&[-1], 0).ok(), Some(vec![0]));
        assert!(matches!(
            infer_size(&[-1, 0], 0),
            Err(Error::ViewInferEmpty { .. })
        ));
    }
}
