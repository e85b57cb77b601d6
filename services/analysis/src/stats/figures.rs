//! The figures statistics are made of: rounding, rates with 95% Wilson intervals, and
//! distributions (mean, quantiles) of whole numbers.
//!
//! Every figure is rounded here, where it is made, so that no consumer (JSON, CSV, GraphQL,
//! a chart) ever prints float noise such as `22.000000000000455` or `5.55e-17`.

use serde::Serialize;

/// Rounds a rate or an interval bound to 4 decimals (0.1234 is 12.34%).
pub fn round4(x: f64) -> f64 {
    round_to(x, 1e4)
}

/// Rounds a mean or a quantile to 2 decimals.
pub fn round2(x: f64) -> f64 {
    round_to(x, 1e2)
}

fn round_to(x: f64, scale: f64) -> f64 {
    if !x.is_finite() {
        return 0.0;
    }
    // `+ 0.0` turns a rounded `-0.0` into `0.0`, which prints as `0` rather than `-0`.
    (x * scale).round() / scale + 0.0
}

/// A proportion of trials with its 95% Wilson score interval. Counts are whole; `successes`
/// counts a win shared by k seats as 1/k, so it alone may be fractional.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rate {
    /// Seats (or games) counted.
    pub trials: u64,
    /// Trials among the winners, a shared win counted whole.
    pub wins: u64,
    /// Wins with a win shared by k seats counted 1/k: what `rate` is. 4 decimals.
    pub successes: f64,
    /// `successes / trials`, 0 without trials. 4 decimals.
    pub rate: f64,
    /// The 95% Wilson score interval, 4 decimals each; both 0 without trials.
    pub low: f64,
    pub high: f64,
}

impl Rate {
    /// The rate of `successes` (fractional for shared wins) in `trials`, `wins` of which
    /// were won or shared.
    pub fn new(trials: u64, wins: u64, successes: f64) -> Rate {
        let (low, high) = wilson(successes, trials);
        Rate {
            trials,
            wins,
            successes: round4(successes),
            rate: if trials == 0 {
                0.0
            } else {
                round4(successes / trials as f64)
            },
            low: round4(low),
            high: round4(high),
        }
    }
}

pub use rules_core::outcome::wilson;

/// Mean, median, 10th and 90th percentiles (2 decimals), min and max of whole numbers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Distribution {
    pub count: u64,
    pub mean: f64,
    pub median: f64,
    pub p10: f64,
    pub p90: f64,
    pub min: i64,
    pub max: i64,
}

/// Percentiles by linear interpolation between closest ranks (as numpy's default), over whole
/// numbers (points, plies, rounds, milliseconds). Order statistics are found by counting when
/// the values span a small range (points, plies, rounds) and by selection otherwise, never by
/// a full sort: a statistics query over 10,000 games computes a dozen of these over 30,000
/// values each.
pub fn distribution(mut xs: Vec<i64>) -> Option<Distribution> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len();
    // An integer sum: the mean is then exact before its one rounding (summing floats would
    // carry the error of each addition into it).
    let sum: i128 = xs.iter().map(|&x| i128::from(x)).sum();
    let lo_v = xs.iter().copied().min().unwrap_or(0);
    let hi_v = xs.iter().copied().max().unwrap_or(0);
    let ranks = quantile_ranks(n);
    let kth = match hi_v.checked_sub(lo_v).and_then(|r| usize::try_from(r).ok()) {
        // Points, plies and rounds span a few hundred values: counting them is linear and
        // beats selection (three passes over tens of thousands of values) by a wide margin.
        Some(range) if range <= 4 * n + 1024 => {
            let mut counts = vec![0u64; range + 1];
            for &x in &xs {
                counts[(x - lo_v) as usize] += 1;
            }
            let counted = counts
                .iter()
                .enumerate()
                .map(|(v, &c)| (lo_v + v as i64, c));
            kth_of_counts(counted, &ranks)
        }
        _ => ranks
            .iter()
            .map(|&r| *xs.select_nth_unstable(r).1)
            .collect::<Vec<i64>>(),
    };
    Some(summarise(n, sum, lo_v, hi_v, &kth))
}

/// The order statistics (0-based ranks among `n` values) the three quantiles interpolate
/// between: for p10, the median and p90, the rank at or below `p·(n−1)` and the one after.
pub(crate) fn quantile_ranks(n: usize) -> Vec<usize> {
    [0.1, 0.5, 0.9]
        .iter()
        .flat_map(|p| {
            let lo = (p * (n - 1) as f64).floor() as usize;
            [lo, (lo + 1).min(n - 1)]
        })
        .collect()
}

/// The values at `ranks` of values given as (value, count) in increasing order.
pub(crate) fn kth_of_counts(
    counted: impl Iterator<Item = (i64, u64)>,
    ranks: &[usize],
) -> Vec<i64> {
    let mut sorted: Vec<usize> = ranks.to_vec();
    sorted.sort_unstable();
    let mut found: Vec<(usize, i64)> = Vec::with_capacity(ranks.len());
    let mut seen = 0u64;
    let mut wanted = sorted.iter().peekable();
    for (v, c) in counted {
        seen += c;
        while let Some(&&r) = wanted.peek() {
            if (r as u64) < seen {
                found.push((r, v));
                wanted.next();
            } else {
                break;
            }
        }
    }
    ranks
        .iter()
        .map(|r| found.iter().find(|(k, _)| k == r).map_or(0, |x| x.1))
        .collect()
}

/// A distribution from its count, integer sum, extremes and the order statistics at
/// [`quantile_ranks`].
pub(crate) fn summarise(n: usize, sum: i128, lo: i64, hi: i64, kth: &[i64]) -> Distribution {
    let mean = sum as f64 / n as f64;
    let q = |i: usize, p: f64| {
        let pos = p * (n - 1) as f64;
        let (a, b) = (kth[2 * i], kth[2 * i + 1]);
        a as f64 + (b - a) as f64 * (pos - pos.floor())
    };
    Distribution {
        count: n as u64,
        mean: round2(mean),
        median: round2(q(1, 0.5)),
        p10: round2(q(0, 0.1)),
        p90: round2(q(2, 0.9)),
        min: lo,
        max: hi,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_hand_computed_values() {
        // 7 of 10 (worked by hand): centre 0.6445, half-width 0.2477 → [0.3968, 0.8922].
        let r = Rate::new(10, 7, 7.0);
        assert_eq!((r.rate, r.low, r.high), (0.7, 0.3968, 0.8922), "{r:?}");
        let (low, high) = wilson(7.0, 10);
        assert!((low - 0.396_8).abs() < 1e-4 && (high - 0.892_2).abs() < 1e-4);
        let r = Rate::new(0, 0, 0.0);
        assert_eq!((r.rate, r.low, r.high), (0.0, 0.0, 0.0));
        // 0 of 5: the interval still reaches 0.4345 (z²/(n+z²)).
        let r = Rate::new(5, 0, 0.0);
        assert_eq!((r.low, r.high), (0.0, 0.4345), "{r:?}");
        // Two 2-way ties and one win in 4: 2 successes of 4, 3 wins counted whole.
        let r = Rate::new(4, 3, 2.0);
        assert_eq!((r.rate, r.wins, r.trials), (0.5, 3, 4));
    }

    #[test]
    fn rounding_drops_float_noise() {
        assert_eq!(round2(22.000_000_000_000_455), 22.0);
        assert_eq!(round4(5.55e-17), 0.0);
        assert_eq!(round4(-5.55e-17).to_string(), "0");
        assert_eq!(round4(1.0 / 3.0), 0.3333);
        assert_eq!(round2(2.0 / 3.0), 0.67);
        assert_eq!(round4(f64::NAN), 0.0);
        // A third of a win, six times, is two wins, whatever the additions' error.
        let thirds: f64 = (0..6).map(|_| 1.0 / 3.0).sum();
        assert_eq!(Rate::new(6, 6, thirds).successes, 2.0);
    }

    #[test]
    fn percentiles_interpolate() {
        let d = distribution(vec![10, 20, 30, 40, 50]).unwrap();
        assert_eq!((d.min, d.max, d.median, d.mean), (10, 50, 30.0, 30.0));
        assert_eq!((d.p10, d.p90, d.count), (14.0, 46.0, 5));
        assert!(distribution(vec![]).is_none());
        // A mean of a third is printed with two decimals.
        assert_eq!(distribution(vec![0, 0, 1]).unwrap().mean, 0.33);
    }

    /// Counting and selection give the quantiles a full sort gives, on narrow and wide ranges.
    #[test]
    fn quantiles_equal_those_of_a_full_sort() {
        fn by_sort(mut xs: Vec<i64>) -> (f64, f64, f64) {
            xs.sort_unstable();
            let q = |p: f64| {
                let pos = p * (xs.len() - 1) as f64;
                let lo = pos.floor() as usize;
                let b = xs[(lo + 1).min(xs.len() - 1)];
                round2(xs[lo] as f64 + (b - xs[lo]) as f64 * (pos - lo as f64))
            };
            (q(0.1), q(0.5), q(0.9))
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..400 {
            let n = 1 + (next() % 300) as usize;
            let span = [3, 50, 1_000, 10_000_000][case % 4];
            let xs: Vec<i64> = (0..n)
                .map(|_| (next() % span) as i64 - span as i64 / 3)
                .collect();
            let d = distribution(xs.clone()).unwrap();
            assert_eq!((d.p10, d.median, d.p90), by_sort(xs), "case {case}");
        }
    }
}
