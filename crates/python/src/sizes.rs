//! Python ints as tensor sizes, checked against the platform's `usize`.
//!
//! PyTorch's sizes are 64-bit everywhere; the engine's are `usize`, which
//! on wasm32 has 32 bits. A size past it must raise, never wrap: `10**12 as
//! usize` is 3567587328 there. The engine takes sizes as `i64` and narrows
//! them itself, so the runtime checks them before handing them over. On a
//! 64-bit machine every non-negative `i64` fits, and nothing here changes
//! what a program sees.

use rustpython_vm::builtins::PyBaseExceptionRef;
use rustpython_vm::{PyResult, VirtualMachine};

/// `size` as a `T` (`usize`; `u32` stands for wasm32's in tests), or
/// `None` where it is negative or past `T`'s range.
pub(crate) fn narrow<T: TryFrom<i64>>(size: i64) -> Option<T> {
    T::try_from(size).ok()
}

/// The first non-negative size that does not fit `T`. Negative sizes pass:
/// `-1` means "inferred" to `view` and `expand`, and the engine gives
/// PyTorch's messages for the others.
pub(crate) fn first_past<T: TryFrom<i64>>(sizes: &[i64]) -> Option<i64> {
    sizes
        .iter()
        .copied()
        .find(|&s| s >= 0 && narrow::<T>(s).is_none())
}

/// The largest size `usize` holds, as PyTorch's `i64`.
pub(crate) fn max_size() -> i64 {
    i64::try_from(usize::MAX).unwrap_or(i64::MAX)
}

/// `size` lowered to [`max_size`]: for an argument that means the same for
/// every value at least the dimension's length (a slice step, a split
/// size), since no dimension is longer than `usize::MAX`.
pub(crate) fn clamp(size: i64) -> i64 {
    size.min(max_size())
}

/// The error for sizes whose storage cannot be counted in `usize`:
/// PyTorch's message, which a 32-bit PyTorch gives for them too.
pub(crate) fn storage_overflow(sizes: &[i64], vm: &VirtualMachine) -> PyBaseExceptionRef {
    vm.new_runtime_error(storage_message(sizes))
}

/// What a new buffer of `sizes` (with one past `usize`) raises: 64-bit
/// PyTorch's error where it raises one without allocating (the element
/// count overflows; or there are no elements and the strides overflow),
/// else the storage overflow a 32-bit PyTorch gives.
pub(crate) fn storage_message(sizes: &[i64]) -> String {
    let numel = sizes.iter().try_fold(1i64, |n, &d| n.checked_mul(d.max(0)));
    let strides_fit = sizes
        .iter()
        .skip(1)
        .try_fold(1i64, |n, &d| n.checked_mul(d.max(1)))
        .is_some();
    if numel == Some(0) && !strides_fit {
        return "Stride calculation overflowed".to_string();
    }
    format!("Storage size calculation overflowed with sizes={sizes:?}")
}

/// Refuses a new buffer's `sizes` with a dimension past `usize` (the
/// engine's `ledger::check_new_buffer` checks the rest).
pub(crate) fn check_storage(sizes: &[i64], vm: &VirtualMachine) -> PyResult<Vec<usize>> {
    sizes
        .iter()
        .map(|&s| {
            narrow::<usize>(s.max(0)).ok_or_else(|| vm.new_runtime_error(storage_message(sizes)))
        })
        .collect()
}

/// Refuses view sizes (`view`, `reshape`, `expand`, `unflatten`, `split`
/// lengths) with a dimension past `usize`. `expand` first gets PyTorch's
/// 64-bit answer where its element count overflows.
pub(crate) fn check_view(op: &str, sizes: &[i64], vm: &VirtualMachine) -> PyResult<()> {
    let Some(size) = first_past::<usize>(sizes) else {
        return Ok(());
    };
    if op == "expand"
        && sizes
            .iter()
            .try_fold(1i64, |n, &d| n.checked_mul(d.max(1)))
            .is_none()
    {
        return Err(crate::errors::to_py(
            gradscope_core::Error::NumelOverflow,
            vm,
        ));
    }
    Err(vm.new_runtime_error(past_message(size, sizes)))
}

fn past_message(size: i64, sizes: &[i64]) -> String {
    format!(
        "size {size} is past the largest size this {}-bit build can hold ({}): sizes={sizes:?}",
        usize::BITS,
        usize::MAX
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// wasm32's `usize` is a `u32`: sizes past it are refused there, not
    /// wrapped (`10**12` wrapped is 3567587328, the browser's old answer).
    #[test]
    fn sizes_past_u32_do_not_narrow_to_it() {
        let big = 1_000_000_000_000i64;
        assert_eq!(narrow::<u32>(big), None);
        assert_eq!(narrow::<u32>(i64::from(u32::MAX) + 1), None);
        assert_eq!(narrow::<u32>(i64::from(u32::MAX)), Some(u32::MAX));
        assert_eq!(narrow::<u32>(-1), None);
        assert_eq!(first_past::<u32>(&[0, big, big]), Some(big));
        assert_eq!(first_past::<u32>(&[-1, 3, i64::from(u32::MAX)]), None);
        assert_eq!(
            first_past::<u32>(&[2, 1 << 40, 1 << 33]),
            Some(1 << 40),
            "the first size past u32, in order"
        );
    }

    /// On this (64-bit) machine every non-negative `i64` is a size: the
    /// checks change nothing natively.
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn every_i64_size_fits_a_64_bit_usize() {
        assert_eq!(narrow::<usize>(i64::MAX), Some(i64::MAX as usize));
        assert_eq!(first_past::<usize>(&[0, 1_000_000_000_000, i64::MAX]), None);
        assert_eq!(max_size(), i64::MAX);
        assert_eq!(clamp(1 << 40), 1 << 40);
    }

    /// The messages 64-bit PyTorch gives for these (fuzz_found_errors.py).
    #[test]
    fn storage_messages_are_64_bit_pytorchs_where_it_raises() {
        let t = 1_000_000_000_000i64;
        assert_eq!(storage_message(&[0, t, t]), "Stride calculation overflowed");
        assert_eq!(
            storage_message(&[t, t, 0]),
            "Storage size calculation overflowed with sizes=[1000000000000, 1000000000000, 0]"
        );
        assert_eq!(
            storage_message(&[1 << 33]),
            "Storage size calculation overflowed with sizes=[8589934592]"
        );
    }

    #[test]
    fn the_message_names_the_size_and_the_limit() {
        let msg = past_message(1 << 40, &[0, 1 << 40]);
        assert!(msg.starts_with("size 1099511627776 is past"), "{msg}");
        assert!(msg.contains(&usize::MAX.to_string()), "{msg}");
        assert!(msg.ends_with("sizes=[0, 1099511627776]"), "{msg}");
    }
}
