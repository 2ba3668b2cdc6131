//! Factories: `arange`, `linspace`, `eye`, `*_like`, and seeded random
//! tensors.
