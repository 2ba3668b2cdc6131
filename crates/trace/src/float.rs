//! Floats in JSON that survive NaN and infinities.
//!
//! Trace events carry measured values (a loss, a gradient norm) and those are
//! exactly what turn NaN when training goes wrong. JSON has no NaN, and
//! serde_json writes it as `null`, which then fails to read back as a float;
//! so these fields write non-finite values as the strings `"nan"`, `"inf"`
//! and `"-inf"` (the convention of our fixture files) and read either form.
//! Use with `#[serde(with = "crate::float::one")]` (or `option`, `many`).

use std::fmt;

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserializer, Serializer};

fn write<S: Serializer>(v: f64, s: S) -> Result<S::Ok, S::Error> {
    if v.is_nan() {
        s.serialize_str("nan")
    } else if v == f64::INFINITY {
        s.serialize_str("inf")
    } else if v == f64::NEG_INFINITY {
        s.serialize_str("-inf")
    } else {
        s.serialize_f64(v)
    }
}

/// A float written by [`write`]: a number, or one of the three strings
/// (`null`, as older writers left NaN, reads as NaN).
struct FloatVisitor;

impl Visitor<'_> for FloatVisitor {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number, or \"nan\", \"inf\" or \"-inf\"")
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_unit<E: de::Error>(self) -> Result<f64, E> {
        Ok(f64::NAN)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        match v {
            "nan" => Ok(f64::NAN),
            "inf" => Ok(f64::INFINITY),
            "-inf" => Ok(f64::NEG_INFINITY),
            other => Err(E::invalid_value(de::Unexpected::Str(other), &self)),
        }
    }
}

/// One float.
pub mod one {
    use super::*;

    /// Writes `v`, non-finite as a string.
    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        write(*v, s)
    }

    /// Reads a number or one of the strings.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        d.deserialize_any(FloatVisitor)
    }
}

/// An optional float (`null` for `None`, so NaN is always the string).
pub mod option {
    use super::*;

    /// Writes `None` as `null`, a value as [`one`] does.
    pub fn serialize<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => write(*v, s),
            None => s.serialize_none(),
        }
    }

    /// Reads `null` as `None`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        struct OptionVisitor;
        impl<'de> Visitor<'de> for OptionVisitor {
            type Value = Option<f64>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("null, a number, or \"nan\", \"inf\" or \"-inf\"")
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                d.deserialize_any(FloatVisitor).map(Some)
            }
        }
        d.deserialize_option(OptionVisitor)
    }
}

/// A list of floats.
pub mod many {
    use super::*;

    struct Each<'a>(&'a f64);

    impl serde::Serialize for Each<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            write(*self.0, s)
        }
    }

    /// Writes each element as [`one`] does.
    pub fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for x in v {
            seq.serialize_element(&Each(x))?;
        }
        seq.end()
    }

    /// Reads a list of numbers and strings.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        struct Seq;
        impl<'de> Visitor<'de> for Seq {
            type Value = Vec<f64>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of floats")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<f64>, A::Error> {
                struct One(f64);
                impl<'de> serde::Deserialize<'de> for One {
                    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                        d.deserialize_any(FloatVisitor).map(One)
                    }
                }
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(One(v)) = seq.next_element()? {
                    out.push(v);
                }
                Ok(out)
            }
        }
        d.deserialize_seq(Seq)
    }
}

#[cfg(test)]
mod tests {
    use crate::EventKind;

    #[test]
    fn non_finite_values_survive_json() -> Result<(), serde_json::Error> {
        let kinds = [
            EventKind::BackwardRoot {
                numel: 1,
                value: Some(f64::NAN),
            },
            EventKind::BackwardRoot {
                numel: 4,
                value: None,
            },
            EventKind::GradValue {
                tensor: 3,
                shape: vec![3],
                norm: f64::INFINITY,
                values: vec![1.5, f64::NAN, f64::NEG_INFINITY],
            },
            EventKind::ValueRead { value: -2.25 },
        ];
        for kind in kinds {
            let json = serde_json::to_string(&kind)?;
            let back: EventKind = serde_json::from_str(&json)?;
            // NaN != NaN: compare the JSON of the round trip instead.
            assert_eq!(serde_json::to_string(&back)?, json, "{json}");
        }
        let json = serde_json::to_string(&EventKind::ValueRead { value: f64::NAN })?;
        assert_eq!(json, r#"{"type":"value_read","value":"nan"}"#);
        Ok(())
    }
}
