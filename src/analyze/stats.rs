//! The statistics of an analysis: the mean of a
//! measure with its 95% confidence interval, and the paired difference of
//! two rule sets played on the same seeds, called significant when its
//! interval leaves out zero. The intervals are percentile bootstraps over
//! the months: a resampled mean of values that are never negative is never
//! negative, so an interval cannot leave the range its measure lives in.
//! The resamples are drawn once per analysis from the analysis seed's dice,
//! so the same command gives the same intervals on any machine, and every
//! measure is resampled over the same months (A, B and their difference
//! alike: the pairing by seed holds in each resample).

use serde::Serialize;

use crate::dice::Dice;

/// How many times the months are resampled.
pub const RESAMPLES: usize = 1_000;

/// A mean with its 95% confidence interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// How many months it is made of (a measure can be missing in some:
    /// the first death day of a month without a death).
    pub n: usize,
    pub mean: f64,
    /// The interval; `None` with fewer than two values.
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl Estimate {
    /// Whether the interval leaves out zero.
    pub fn excludes_zero(&self) -> bool {
        match (self.low, self.high) {
            (Some(low), Some(high)) => low > 0.0 || high < 0.0,
            _ => false,
        }
    }
}

/// The resamples of `months` months: for each, how many times each month
/// was drawn.
pub struct Resamples {
    months: usize,
    /// `RESAMPLES` rows of `months` weights, row after row.
    weights: Vec<f64>,
}

impl Resamples {
    /// `RESAMPLES` draws of `months` months with replacement, from the
    /// dice of `seed`.
    pub fn new(months: usize, seed: u64) -> Resamples {
        let mut weights = vec![0.0; RESAMPLES * months];
        if let Ok(bound) = u32::try_from(months) {
            let mut dice = Dice::new(seed, 0);
            for row in weights.chunks_mut(months.max(1)).take(RESAMPLES) {
                for _ in 0..months {
                    row[dice.below("analysis resample", bound) as usize] += 1.0;
                }
            }
        }
        Resamples { months, weights }
    }

    /// The mean of a measure over the months that have it (`None` where a
    /// month lacks it), with the percentile interval of its resampled means.
    pub fn estimate(&self, values: &[Option<f64>]) -> Estimate {
        let present: Vec<f64> = values.iter().flatten().copied().collect();
        let n = present.len();
        #[allow(clippy::cast_precision_loss)] // counts of months
        let mean = if n == 0 {
            0.0
        } else {
            present.iter().sum::<f64>() / n as f64
        };
        let (low, high) = if n < 2 || values.len() != self.months {
            (None, None)
        } else {
            self.interval(values)
        };
        Estimate {
            n,
            mean: round(mean),
            low: low.map(round),
            high: high.map(round),
        }
    }

    /// The paired difference B − A, over the months where both have the
    /// measure.
    pub fn paired_difference(&self, a: &[Option<f64>], b: &[Option<f64>]) -> Estimate {
        let differences: Vec<Option<f64>> =
            a.iter().zip(b).map(|(a, b)| Some((*b)? - (*a)?)).collect();
        self.estimate(&differences)
    }

    /// The 2.5% and 97.5% percentiles of the resampled means; a resample
    /// that drew no month with the measure has no mean and is left out.
    fn interval(&self, values: &[Option<f64>]) -> (Option<f64>, Option<f64>) {
        let mut present = values.iter().flatten();
        let first = present.next().copied();
        // Every resample of one value over and over is that value.
        if let Some(only) = first.filter(|f| present.all(|v| v == f)) {
            return (Some(only), Some(only));
        }
        let mut means: Vec<f64> = self
            .weights
            .chunks(self.months)
            .filter_map(|row| {
                let (mut sum, mut count) = (0.0, 0.0);
                for (w, v) in row.iter().zip(values) {
                    if let Some(v) = v {
                        sum += w * v;
                        count += w;
                    }
                }
                (count > 0.0).then(|| sum / count)
            })
            .collect();
        if means.is_empty() {
            return (None, None);
        }
        means.sort_by(f64::total_cmp);
        let last = means.len() - 1;
        let at = |share: f64| {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss
            )] // an index into the resamples
            let index = ((last as f64) * share).round() as usize;
            means[index.min(last)]
        };
        (Some(at(0.025)), Some(at(0.975)))
    }
}

/// The paired difference B − A of `pairs`, resampled from `seed`.
pub fn paired_difference(pairs: &[(f64, f64)], seed: u64) -> Estimate {
    let (a, b): (Vec<Option<f64>>, Vec<Option<f64>>) =
        pairs.iter().map(|(a, b)| (Some(*a), Some(*b))).unzip();
    Resamples::new(pairs.len(), seed).paired_difference(&a, &b)
}

/// Six decimals: the same figures on every machine, in text and JSON; a
/// zero is always +0 (a -0 would print as "-0").
fn round(value: f64) -> f64 {
    (value * 1e6).round() / 1e6 + 0.0
}

/// `value` to three decimals, a zero without a sign.
pub fn three(value: f64) -> String {
    fixed(value, 3)
}

/// `value` to `decimals` decimals, a zero without a sign: "-0.000" would
/// read as a loss where there is none.
pub fn fixed(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_string(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` paired months whose B values are the A values plus `shift` and
    /// noise, from seeded dice.
    fn pairs(n: usize, shift: f64, seed: u64) -> Vec<(f64, f64)> {
        let mut dice = Dice::new(seed, 1);
        (0..n)
            .map(|_| {
                let a = f64::from(dice.below("a", 20));
                let noise = f64::from(dice.below("noise", 7)) - 3.0;
                (a, a + shift + noise)
            })
            .collect()
    }

    #[test]
    fn a_known_difference_is_found_and_a_null_one_is_not_called_significant() {
        let found = paired_difference(&pairs(400, 1.0, 7), 7);
        assert!(found.excludes_zero(), "{found:?}");
        assert!((found.mean - 1.0).abs() < 0.3, "{found:?}");
        // With no difference, about 5 runs in 100 would cross zero by
        // chance: of 40 seeded runs, at most a few may.
        let false_alarms = (0..40)
            .filter(|seed| paired_difference(&pairs(200, 0.0, *seed), *seed).excludes_zero())
            .count();
        assert!(
            false_alarms <= 5,
            "{false_alarms} of 40 null runs called significant"
        );
    }

    #[test]
    fn the_interval_of_a_count_that_is_mostly_zero_stays_at_or_above_zero() {
        // Two great treasures in 200 months: Student's t put the interval
        // at [-0.004, 0.024].
        let values: Vec<Option<f64>> = (0..200).map(|k| Some(f64::from(k % 100 == 0))).collect();
        let estimate = Resamples::new(200, 1).estimate(&values);
        assert_eq!((estimate.n, estimate.mean), (200, 0.01));
        assert_eq!(estimate.low, Some(0.0), "{estimate:?}");
        assert!(estimate.high.is_some_and(|h| h > 0.01), "{estimate:?}");
    }

    #[test]
    fn the_same_seed_gives_the_same_interval_and_another_seed_may_not() {
        let values: Vec<Option<f64>> = (0..50).map(|k| Some(f64::from(k % 7))).collect();
        let once = Resamples::new(50, 3).estimate(&values);
        assert_eq!(once, Resamples::new(50, 3).estimate(&values));
        assert!(once.low < Some(once.mean) && once.high > Some(once.mean));
    }

    #[test]
    fn a_measure_missing_in_some_months_is_averaged_and_paired_where_it_exists() {
        let a = [Some(5.0), None, Some(7.0), None];
        let b = [Some(5.0), Some(20.0), Some(7.0), Some(20.0)];
        let resamples = Resamples::new(4, 1);
        assert_eq!(resamples.estimate(&a).n, 2);
        assert_eq!(resamples.estimate(&a).mean, 6.0);
        assert_eq!(resamples.estimate(&b).mean, 13.0);
        let difference = resamples.paired_difference(&a, &b);
        assert_eq!((difference.n, difference.mean), (2, 0.0));
    }

    #[test]
    fn one_value_has_no_interval() {
        let one = Resamples::new(1, 1).estimate(&[Some(3.0)]);
        assert_eq!((one.n, one.mean, one.low), (1, 3.0, None));
        assert!(!one.excludes_zero());
    }

    #[test]
    fn a_zero_prints_without_a_sign() {
        assert_eq!(three(-0.0), "0.000");
        assert_eq!(three(-0.0002), "0.000");
        assert_eq!(three(-0.02), "-0.020");
        assert_eq!(round(-0.000_000_1).to_string(), "0");
    }
}
