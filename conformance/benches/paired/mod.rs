//! Timing two paths in pairs, for the benchmarks that compare the crate's job with a
//! hand-written one the way a held-out harness does: interleaved, on CPU time.

use cpu_time::ThreadTime;

/// What [`paired`] measured: the ratio of the baseline's time to the candidate's in each
/// round (above 1: the candidate is faster), sorted.
pub struct Paired {
    /// The ratios, one a round, sorted.
    pub ratios: Vec<f64>,
    /// The median times of the baseline and the candidate, in seconds.
    pub times: (f64, f64),
}

impl Paired {
    /// The median ratio.
    pub fn median(&self) -> f64 {
        self.ratios
            .get(self.ratios.len() / 2)
            .copied()
            .unwrap_or(f64::NAN)
    }
}

impl std::fmt::Display for Paired {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let first = self.ratios.first().copied().unwrap_or(f64::NAN);
        let last = self.ratios.last().copied().unwrap_or(f64::NAN);
        write!(
            f,
            "{:.3} (median of {} rounds on CPU time; {:.3} to {:.3}; {:.2} ms against {:.2} ms)",
            self.median(),
            self.ratios.len(),
            first,
            last,
            self.times.0 * 1e3,
            self.times.1 * 1e3,
        )
    }
}

/// Times `baseline` and `candidate` in `rounds` rounds, one right after the other in the same
/// thread, the order swapped every round, so that what the machine does meanwhile falls on
/// both alike: the ratio of each round's two times, on the thread's CPU time.
pub fn paired<A, B>(
    rounds: usize,
    mut baseline: impl FnMut() -> A,
    mut candidate: impl FnMut() -> B,
) -> Paired {
    let time = |run: &mut dyn FnMut()| {
        let start = ThreadTime::now();
        run();
        start.elapsed().as_secs_f64()
    };
    // One round of each first, unmeasured, to warm the caches and the allocator.
    std::hint::black_box(baseline());
    std::hint::black_box(candidate());
    let mut ratios = Vec::with_capacity(rounds);
    let mut times = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for round in 0..rounds {
        let mut base = || drop(std::hint::black_box(baseline()));
        let mut cand = || drop(std::hint::black_box(candidate()));
        let (base_time, cand_time) = if round % 2 == 0 {
            let base_time = time(&mut base);
            (base_time, time(&mut cand))
        } else {
            let cand_time = time(&mut cand);
            (time(&mut base), cand_time)
        };
        ratios.push(base_time / cand_time);
        times.0.push(base_time);
        times.1.push(cand_time);
    }
    let median = |mut times: Vec<f64>| {
        times.sort_by(f64::total_cmp);
        times.get(times.len() / 2).copied().unwrap_or(f64::NAN)
    };
    ratios.sort_by(f64::total_cmp);
    Paired {
        ratios,
        times: (median(times.0), median(times.1)),
    }
}
