//! `torch.bfloat16`'s element: the upper 16 bits of a float32, as
//! `c10::BFloat16` stores it.

/// One bfloat16 value, its bits. Converting from float32 rounds to nearest
/// even (NaN stays a quiet NaN), as `c10::round_to_nearest_even` does;
/// converting to float32 is exact.
///
/// ```
/// use gradscope_core::cpu::Bf16;
/// assert_eq!(Bf16::from_f32(0.1).to_f32(), 0.10009765625);
/// // A tie rounds to the even neighbour: 1 + 2^-8 is halfway and goes down.
/// assert_eq!(Bf16::from_f32(1.0 + 1.0 / 256.0).to_f32(), 1.0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bf16(pub u16);

impl Bf16 {
    /// `c10::BFloat16(float)`: round to nearest, ties to even.
    pub fn from_f32(v: f32) -> Self {
        if v.is_nan() {
            return Bf16(0x7FC0);
        }
        let bits = v.to_bits();
        let rounding_bias = 0x7FFF + ((bits >> 16) & 1);
        Bf16((bits.wrapping_add(rounding_bias) >> 16) as u16)
    }

    /// The float32 with these upper bits: exact.
    pub fn to_f32(self) -> f32 {
        f32::from_bits(u32::from(self.0) << 16)
    }
}

impl PartialOrd for Bf16 {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        self.to_f32().partial_cmp(&other.to_f32())
    }
}
