//! What the benchmarks share: the figures criterion wrote for this run, read back to print
//! ratios against a baseline measured in the same run.

use std::path::Path;

/// The time criterion reports for one benchmark in this run, in nanoseconds: its slope
/// estimate where it has one (the figure it prints), else its mean.
pub fn typical(group: &str, bench: &str) -> Option<f64> {
    // Benchmarks run in their package's folder; criterion writes to the workspace's target.
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../target").into());
    let path = Path::new(&target)
        .join("criterion")
        .join(group.replace('/', "_"))
        .join(bench)
        .join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let estimates: serde_json::Value = serde_json::from_str(&text).ok()?;
    estimates["slope"]["point_estimate"]
        .as_f64()
        .or_else(|| estimates["mean"]["point_estimate"].as_f64())
}

/// The ratio of one benchmark's time to another's in this run, to three decimals, or `-`
/// when either is missing.
pub fn ratio(group: &str, bench: &str, baseline: &str) -> String {
    match (typical(group, bench), typical(group, baseline)) {
        (Some(time), Some(base)) => format!("{:.3}", time / base),
        _ => "-".to_owned(),
    }
}
