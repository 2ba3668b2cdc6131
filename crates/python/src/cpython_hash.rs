//! `hash()` of `str` and `bytes` as CPython 3.11 computes it with
//! `PYTHONHASHSEED=0`, the setting PyTorch outputs are recorded with:
//! SipHash-1-3 under an all-zero key over the object's bytes (a `str`'s in
//! its storage kind: one byte a character up to U+00FF, two up to U+FFFF,
//! four beyond), the empty object 0 and -1 made -2. RustPython hashes with
//! SipHash-2-4 under a key derived from the seed, so a program that splits
//! its data by `hash(...) % 4` (minGPT's sort demo) drew other examples.

use std::hash::Hasher;

use siphasher::sip::SipHasher13;

/// CPython's `_Py_HashBytes` with a zero secret.
pub fn bytes(data: &[u8]) -> i64 {
    if data.is_empty() {
        return 0;
    }
    let mut hasher = SipHasher13::new_with_keys(0, 0);
    hasher.write(data);
    match hasher.finish() as i64 {
        -1 => -2,
        x => x,
    }
}

/// CPython's `str.__hash__`: the bytes of its compact storage kind.
pub fn str(text: &str) -> i64 {
    let widest = text.chars().map(u32::from).max().unwrap_or(0);
    let data: Vec<u8> = if widest <= 0xFF {
        text.chars().map(|c| u32::from(c) as u8).collect()
    } else if widest <= 0xFFFF {
        text.chars()
            .flat_map(|c| (u32::from(c) as u16).to_le_bytes())
            .collect()
    } else {
        text.chars()
            .flat_map(|c| u32::from(c).to_le_bytes())
            .collect()
    };
    bytes(&data)
}

#[cfg(test)]
mod tests {
    // Values printed by `PYTHONHASHSEED=0 python3` (CPython 3.11.7).
    #[test]
    fn bytes_as_cpython() {
        assert_eq!(super::bytes(b"abc"), -4594863902769663758);
        assert_eq!(super::bytes(b""), 0);
        assert_eq!(super::bytes(b"\x80\x04\x95"), 6411066443406975925);
    }

    #[test]
    fn str_as_cpython_in_each_storage_kind() {
        assert_eq!(super::str("abc"), -4594863902769663758);
        assert_eq!(super::str(""), 0);
        assert_eq!(super::str("héllo"), 6395329678795984700);
        assert_eq!(super::str("日本語"), 7116994712188270);
        assert_eq!(super::str("a😀b"), -7541021549821082252);
        assert_eq!(super::str(&"x".repeat(100)), 1359644457043326220);
    }
}
