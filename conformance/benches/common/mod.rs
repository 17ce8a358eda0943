//! What the benchmarks share beyond the conformance library (which does not depend on
//! criterion).

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};

/// A benchmark group for records of `size` messages; large records take fewer, longer
/// samples.
pub fn sized_group(c: &mut Criterion, name: String, size: usize) -> BenchmarkGroup<'_, WallTime> {
    let mut group = c.benchmark_group(name);
    if size >= 1_000 {
        group
            .sample_size(20)
            .measurement_time(std::time::Duration::from_secs(10));
    }
    group
}
