//! The statistics of an analysis (issue 21 §1): the mean of a measure with
//! its 95% confidence interval, and the paired difference of two rule sets
//! played on the same seeds, called significant when its interval leaves
//! out zero. Student's t with the Cornish–Fisher expansion of its quantile,
//! exact enough from a handful of months up.

use serde::Serialize;

/// The two-sided 95% normal quantile.
const Z_975: f64 = 1.959_963_984_540_054;

/// A mean with its 95% confidence interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// How many values it is made of.
    pub n: usize,
    pub mean: f64,
    /// The interval; `None` with fewer than two values.
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl Estimate {
    /// The estimate of the mean of `values`.
    pub fn of(values: &[f64]) -> Estimate {
        let n = values.len();
        #[allow(clippy::cast_precision_loss)] // counts of months
        let count = n as f64;
        let mean = if n == 0 {
            0.0
        } else {
            values.iter().sum::<f64>() / count
        };
        let (low, high) = if n < 2 {
            (None, None)
        } else {
            let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (count - 1.0);
            let half = t_975(count - 1.0) * (variance / count).sqrt();
            (Some(mean - half), Some(mean + half))
        };
        Estimate {
            n,
            mean: round(mean),
            low: low.map(round),
            high: high.map(round),
        }
    }

    /// Whether the interval leaves out zero.
    pub fn excludes_zero(&self) -> bool {
        match (self.low, self.high) {
            (Some(low), Some(high)) => low > 0.0 || high < 0.0,
            _ => false,
        }
    }
}

/// The paired difference B − A of `pairs`.
pub fn paired_difference(pairs: &[(f64, f64)]) -> Estimate {
    let differences: Vec<f64> = pairs.iter().map(|(a, b)| b - a).collect();
    Estimate::of(&differences)
}

/// Student's t quantile at 97.5% for `freedom` degrees of freedom.
fn t_975(freedom: f64) -> f64 {
    let z = Z_975;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * freedom)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * freedom.powi(2))
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * freedom.powi(3))
}

/// Six decimals: the same figures on every machine, in text and JSON.
fn round(value: f64) -> f64 {
    (value * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;

    #[test]
    fn the_t_quantile_matches_the_tables() {
        // Student's t, 97.5%: 4 df 2.776, 10 df 2.228, 30 df 2.042.
        for (df, table) in [(4.0, 2.776), (10.0, 2.228), (30.0, 2.042)] {
            assert!((t_975(df) - table).abs() < 0.01, "{df}: {}", t_975(df));
        }
    }

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
        let found = paired_difference(&pairs(400, 1.0, 7));
        assert!(found.excludes_zero(), "{found:?}");
        assert!((found.mean - 1.0).abs() < 0.3, "{found:?}");
        // With no difference, about 5 runs in 100 would cross zero by
        // chance: of 40 seeded runs, at most a few may.
        let false_alarms = (0..40)
            .filter(|seed| paired_difference(&pairs(200, 0.0, *seed)).excludes_zero())
            .count();
        assert!(
            false_alarms <= 5,
            "{false_alarms} of 40 null runs called significant"
        );
    }

    #[test]
    fn one_value_has_no_interval() {
        let one = Estimate::of(&[3.0]);
        assert_eq!((one.n, one.mean, one.low), (1, 3.0, None));
        assert!(!one.excludes_zero());
    }
}
