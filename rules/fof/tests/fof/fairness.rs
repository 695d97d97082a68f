//! The fairness evidence the issue asks for: 20,000 shuffles, p > 0.001.

use fof::fairness::{positions_of_fresh_shuffles, reshuffles};

#[test]
fn every_card_equally_likely_in_every_position_over_20000_shuffles() {
    let chi = positions_of_fresh_shuffles(1, 50, 20_000);
    eprintln!(
        "fresh shuffles: chi2 = {:.1}, df = {}, p = {:.4}",
        chi.statistic, chi.df, chi.p
    );
    assert!(chi.p > 0.001, "{chi:?}");
}

#[test]
fn reshuffles_are_fresh_shuffles() {
    let (positions, successive) = reshuffles(2, 50, 20_000);
    eprintln!(
        "reshuffles: positions chi2 = {:.1} (df {}, p = {:.4}); successive positions of card 1 chi2 = {:.1} (df {}, p = {:.4})",
        positions.statistic, positions.df, positions.p, successive.statistic, successive.df, successive.p
    );
    assert!(positions.p > 0.001, "{positions:?}");
    assert!(successive.p > 0.001, "{successive:?}");
}
