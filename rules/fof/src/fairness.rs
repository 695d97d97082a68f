//! Chi-square checks that the shuffle is fair: every card equally likely in every position, and each
//! reshuffle independent of the order before it. The survival function is computed here (regularised
//! upper incomplete gamma) rather than pulling in a statistics crate for one function.

use crate::deck::DrawPile;

#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ChiSquare {
    pub statistic: f64,
    pub df: u32,
    /// P(χ²_df ≥ statistic).
    pub p: f64,
}

/// Pearson's statistic over an n×n table of counts with equal expected counts. When every row and
/// column total is fixed by construction (card × position: each shuffle puts each card in one position
/// and one card in each position) df = (n−1)²; otherwise only the grand total is fixed and df = n²−1.
fn square_table(counts: &[Vec<u64>], fixed_margins: bool) -> ChiSquare {
    let n = counts.len();
    let total: u64 = counts.iter().flatten().sum();
    let expected = total as f64 / (n * n) as f64;
    let statistic = counts
        .iter()
        .flatten()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    let df = if fixed_margins {
        (n - 1) * (n - 1)
    } else {
        n * n - 1
    } as u32;
    ChiSquare {
        statistic,
        df,
        p: chi_square_sf(statistic, f64::from(df)),
    }
}

/// Card × position counts over `shuffles` fresh shuffles (seeds `seed`, `seed+1`, …).
pub fn positions_of_fresh_shuffles(seed: u64, cards: u16, shuffles: u32) -> ChiSquare {
    let n = usize::from(cards);
    let mut counts = vec![vec![0u64; n]; n];
    for k in 0..u64::from(shuffles) {
        let pile = DrawPile::new(seed.wrapping_add(k), cards);
        // Position 0 is the first card drawn (top of the pile = last element).
        for (pos, &card) in pile.draw.iter().rev().enumerate() {
            counts[usize::from(card) - 1][pos] += 1;
        }
    }
    square_table(&counts, true)
}

/// One pile, drawn out and reshuffled `shuffles` times. Returns (card × position over the reshuffles,
/// position of card 1 in one shuffle × its position in the next). The second table tests that a
/// reshuffle is a fresh shuffle, not a function of the order it replaces; positions are grouped into
/// 10 equal bands so each cell expects ~200 counts (the χ² approximation needs well-filled cells).
pub fn reshuffles(seed: u64, cards: u16, shuffles: u32) -> (ChiSquare, ChiSquare) {
    let n = usize::from(cards);
    let mut counts = vec![vec![0u64; n]; n];
    const BANDS: usize = 10;
    let mut pairs = vec![vec![0u64; BANDS]; BANDS];
    let mut pile = DrawPile::new(seed, cards);
    let mut previous: Option<usize> = None;
    for _ in 0..shuffles {
        let mut order = Vec::with_capacity(n);
        while let Some(card) = pile.draw() {
            order.push(card);
        }
        for (pos, &card) in order.iter().enumerate() {
            counts[usize::from(card) - 1][pos] += 1;
        }
        let pos_of_1 = order.iter().position(|&c| c == 1).unwrap_or(0) * BANDS / n.max(1);
        if let Some(prev) = previous {
            pairs[prev][pos_of_1] += 1;
        }
        previous = Some(pos_of_1);
        pile.reshuffle();
    }
    (square_table(&counts, true), square_table(&pairs, false))
}

/// Survival function of the chi-square distribution: Q(df/2, x/2).
pub fn chi_square_sf(x: f64, df: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    gamma_q(df / 2.0, x / 2.0)
}

/// Regularised upper incomplete gamma Q(a, x) (series below a+1, continued fraction above).
fn gamma_q(a: f64, x: f64) -> f64 {
    if x < a + 1.0 {
        1.0 - gamma_p_series(a, x)
    } else {
        gamma_q_fraction(a, x)
    }
}

fn gamma_p_series(a: f64, x: f64) -> f64 {
    let mut sum = 1.0 / a;
    let mut term = sum;
    let mut ap = a;
    for _ in 0..10_000 {
        ap += 1.0;
        term *= x / ap;
        sum += term;
        if term.abs() < sum.abs() * 1e-15 {
            break;
        }
    }
    sum * (-x + a * x.ln() - ln_gamma(a)).exp()
}

/// Lentz's method for the continued fraction of Q(a, x).
fn gamma_q_fraction(a: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..10_000 {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < TINY {
            d = TINY;
        }
        c = b + an / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-15 {
            break;
        }
    }
    (-x + a * x.ln() - ln_gamma(a)).exp() * h
}

/// Lanczos approximation (g = 7, n = 9), accurate to ~1e-15 for a > 0.
fn ln_gamma(x: f64) -> f64 {
    const COEF: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = COEF[0];
    let t = x + 7.5;
    for (i, &c) in COEF.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    // Reference values from standard chi-square tables.
    #[test]
    fn survival_function_matches_tables() {
        assert!((chi_square_sf(3.841_458_8, 1.0) - 0.05).abs() < 1e-6);
        assert!((chi_square_sf(18.307_038, 10.0) - 0.05).abs() < 1e-6);
        assert!((chi_square_sf(2.0, 2.0) - (-1.0f64).exp()).abs() < 1e-12);
        // Large df: median of chi-square(2401) is close to 2401 - 2/3.
        let p = chi_square_sf(2400.333, 2401.0);
        assert!((p - 0.5).abs() < 0.01, "{p}");
        assert!(chi_square_sf(3000.0, 2401.0) < 1e-10);
    }

    #[test]
    fn biased_table_is_rejected() {
        // A "shuffle" that leaves card i at position i must fail badly.
        let n = 10;
        let counts: Vec<Vec<u64>> = (0..n)
            .map(|i| (0..n).map(|j| if i == j { 1000 } else { 0 }).collect())
            .collect();
        assert!(square_table(&counts, true).p < 1e-100);
    }
}
