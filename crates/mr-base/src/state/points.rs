//! Fame and notoriety in parts of points (3.1 8.7.1b): characters who kill
//! a denizen at the same instant divide its points, retaining fractions;
//! a character's parts are kept until they make whole points, which go to
//! his recorded Fame and Notoriety.

use serde::{Deserialize, Serialize};

/// Fame and notoriety a character won as parts of points from shared
/// kills, waiting to make whole ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    pub fame: Fraction,
    pub notoriety: Fraction,
}

impl Kept {
    pub fn is_zero(&self) -> bool {
        self.fame.is_zero() && self.notoriety.is_zero()
    }
}

/// A number of points, `num / den` (`den` 0 stands for zero).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fraction {
    pub num: i64,
    pub den: i64,
}

impl Fraction {
    pub fn new(num: i64, den: i64) -> Fraction {
        if num == 0 || den == 0 {
            return Fraction::default();
        }
        let g = gcd(num.unsigned_abs(), den.unsigned_abs());
        let g = i64::try_from(g).unwrap_or(1);
        Fraction {
            num: num / g,
            den: den / g,
        }
    }

    pub fn is_zero(&self) -> bool {
        self.num == 0 || self.den == 0
    }

    pub fn plus(self, other: Fraction) -> Fraction {
        match (self.is_zero(), other.is_zero()) {
            (true, _) => other,
            (_, true) => self,
            _ => Fraction::new(
                self.num * other.den + other.num * self.den,
                self.den * other.den,
            ),
        }
    }

    /// The whole points in it, and what is left.
    pub fn split(self) -> (i32, Fraction) {
        if self.is_zero() {
            return (0, self);
        }
        let whole = self.num / self.den;
        (
            i32::try_from(whole).unwrap_or(0),
            Fraction::new(self.num - whole * self.den, self.den),
        )
    }
}

impl std::fmt::Display for Fraction {
    /// `2`, `1/2`, `1 1/2`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_zero() {
            return write!(f, "0");
        }
        let (whole, part) = (self.num / self.den, self.num % self.den);
        match (whole, part) {
            (w, 0) => write!(f, "{w}"),
            (0, p) => write!(f, "{p}/{}", self.den),
            (w, p) => write!(f, "{w} {}/{}", p.abs(), self.den),
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a.max(1) } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::Fraction;

    /// 3.1 8.7.1b: halves and thirds add up, whole points split off and
    /// the rest is kept; negative parts read as such.
    #[test]
    fn parts_of_points_add_up_and_split_into_whole_ones_3_1_8_7_1b() {
        let half = Fraction::new(1, 2);
        let third = Fraction::new(2, 6);
        assert_eq!(third, Fraction::new(1, 3));
        let sum = half.plus(half).plus(third);
        assert_eq!(sum.to_string(), "1 1/3");
        assert_eq!(sum.split(), (1, Fraction::new(1, 3)));
        assert_eq!(Fraction::new(5, 2).to_string(), "2 1/2");
        assert_eq!(Fraction::new(-1, 2).to_string(), "-1/2");
        assert_eq!(Fraction::new(4, 2).split(), (2, Fraction::default()));
        assert!(Fraction::new(0, 3).is_zero());
    }
}
