//! The words on the chart's axes: durations and bytes, and the round
//! number the bytes axis tops out at.

/// Microseconds as the time axis prints them: `850 us`, `1.2 ms`, `3.4 s`.
pub fn duration_label(us: u64) -> String {
    match us {
        0..1_000 => format!("{us} us"),
        1_000..1_000_000 => format!("{:.1} ms", us as f64 / 1e3),
        _ => format!("{:.1} s", us as f64 / 1e6),
    }
}

/// The smallest 1, 2 or 5 times a power of ten, or a power of two from
/// 1 KiB on, that is at least `bytes` (1 for an empty chart).
pub fn nice_ceiling(bytes: u64) -> u64 {
    if bytes <= 1 {
        return 1;
    }
    if bytes > 1024 {
        return bytes.next_power_of_two();
    }
    let mut scale = 1u64;
    loop {
        for m in [1, 2, 5] {
            if m * scale >= bytes {
                return m * scale;
            }
        }
        scale *= 10;
    }
}

/// Bytes as the page prints them: `512 B`, `1.5 KiB`, `2 MiB`.
pub fn bytes_label(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let text = format!("{value:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text} {}", UNITS[unit])
}
