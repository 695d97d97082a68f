use fof::mission::{DeckRef, PcDraws, TimeOfDay};
use fof::Mission;

#[test]
fn demo_mission_loads_with_its_tables() {
    let m = Mission::demo().unwrap();
    assert!(m.note.contains("not a published"));
    assert_eq!(m.turns, 6);
    assert_eq!(m.time_at(1), TimeOfDay::Dawn);
    assert!(m.limited_visibility_at(1));
    assert!(!m.limited_visibility_at(2));
    assert_eq!(m.deck, DeckRef::File("demo-deck.toml".into()));
    assert_eq!(m.friendly_hq_events.len(), 10);
    assert_eq!(m.pc_chart["B"]["heavy"], PcDraws::Auto);
}

fn parse_edited(from: &str, to: &str) -> rules_core::data::DataError {
    let text = fof::mission::DEMO_MISSION_TOML.replacen(from, to, 1);
    assert_ne!(text, fof::mission::DEMO_MISSION_TOML);
    Mission::parse("m.toml", &text).unwrap_err()
}

#[test]
fn mission_file_time_track_must_cover_every_turn() {
    let err = parse_edited("turns = 6", "turns = 7");
    assert_eq!(err.field.as_deref(), Some("mission.time_of_day"), "{err}");
}

#[test]
fn mission_file_event_table_needs_every_r_number() {
    let err = parse_edited("r = 7\nzh = \"无事发生。\"", "r = 6\nzh = \"无事发生。\"");
    assert!(err.message.contains("R# 6 has two rows"), "{err}");
}

#[test]
fn mission_file_bad_experience_names_hq_field_and_line() {
    let err = parse_edited("experience = \"veteran\"", "experience = \"elite\"");
    assert_eq!(err.field.as_deref(), Some("hq[1].experience"), "{err}");
    let line = fof::mission::DEMO_MISSION_TOML
        .lines()
        .position(|l| l == "experience = \"veteran\"")
        .unwrap()
        + 1;
    assert_eq!(err.line, Some(line));
}

#[test]
fn mission_file_pc_chart_needs_every_activity_level() {
    let err = parse_edited("heavy = \"auto\"", "heavy = \"lots\"");
    assert_eq!(err.field.as_deref(), Some("pc_chart[1].heavy"), "{err}");
}

#[test]
fn mission_file_unknown_profile_option_is_refused() {
    let err = parse_edited("activation_cost = 1", "activation_cots = 1");
    assert_eq!(
        err.field.as_deref(),
        Some("profile.activation_cots"),
        "{err}"
    );
}

#[test]
fn mission_file_physical_deck() {
    let text =
        fof::mission::DEMO_MISSION_TOML.replace("file = \"demo-deck.toml\"", "physical_cards = 54");
    assert_eq!(
        Mission::parse("m.toml", &text).unwrap().deck,
        DeckRef::Physical(54)
    );
}
