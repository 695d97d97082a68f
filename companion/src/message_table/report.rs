//! The 风声 table reading's evaluation report: the whole set, then by condition, as a table or JSON.

use std::process::ExitCode;
use vision::games::message::{by_condition, summarise, MessageOutcome, MessageSummary};

pub fn eval_report(
    outcomes: &[MessageOutcome],
    source: &str,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let first = outcomes.first().map_or(0, |o| o.seed);
    let summary = summarise(outcomes, first);
    let rows = by_condition(outcomes);
    if json {
        let out =
            serde_json::json!({ "scenes_from": source, "summary": summary, "by_condition": rows });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{} scenes from {source} (first seed {first}), {} clear cards and {} overlapped, {} read \
         where no card lies, {} scenes with every seat card seen; {:.1} ms median, {:.1} p95",
        summary.scenes,
        summary.clear_cards,
        summary.overlapped_cards,
        summary.phantoms,
        summary.seat_card_scenes,
        summary.median_ms,
        summary.p95_ms
    );
    println!(
        "frames the table counts nothing from (a hand seen, or a card covered by no card): {} of {} \
         with a hand, {} of {} without; seats with the exact count over the frames counted: {:.2} %",
        summary.hand_scenes_held,
        summary.hand_scenes,
        summary.handless_scenes_held,
        summary.scenes - summary.hand_scenes,
        100.0 * summary.seat_tallies_counted
    );
    println!(
        "{:<10} {:<12} {:>6} {:>6} {:>7} {:>7} {:>7} {:>7} {:>7} {:>8} {:>8}",
        "axis",
        "value",
        "scenes",
        "cards",
        "found%",
        "named%",
        "colour%",
        "seat%",
        "tally%",
        "ovl.fnd%",
        "ovl.col%"
    );
    print_row("all", "", &summary);
    for r in &rows {
        print_row(&r.axis, &r.value, &r.summary);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_row(axis: &str, value: &str, s: &MessageSummary) {
    let pct = |x: f64| 100.0 * x;
    println!(
        "{:<10} {:<12} {:>6} {:>6} {:>7.2} {:>7.2} {:>7.2} {:>7.2} {:>7.2} {:>8.2} {:>8.2}",
        axis,
        value,
        s.scenes,
        s.clear_cards,
        pct(s.detected),
        pct(s.identity),
        pct(s.colour),
        pct(s.seat),
        pct(s.seat_tallies),
        pct(s.overlapped_detected),
        pct(s.overlapped_colour)
    );
}
