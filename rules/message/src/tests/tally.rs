//! The table tally's announcements.

use super::*;
use crate::rules::{self, seed};
use crate::tally::{announce, Announcement, SeatTally};

fn t(s: &str) -> SeatTally {
    SeatTally::parse(s).expect("tally parses")
}

#[test]
fn three_black_announces_a_death() {
    let said = announce(&[t(""), t("黑黑黑"), t("红黑")], &Profile::default());
    assert_eq!(said.len(), 1);
    assert_eq!(said[0].announcement, Announcement::Death { seat: 1 });
    assert_eq!(said[0].rule, seed(rules::DEATH));
}

#[test]
fn three_red_or_blue_asks_for_the_identity() {
    let said = announce(&[t("rrr"), t("uuu k")], &Profile::default());
    assert_eq!(
        said.iter()
            .map(|s| s.announcement.clone())
            .collect::<Vec<_>>(),
        vec![
            Announcement::PossibleVictory {
                seat: 0,
                identity: Identity::Lurker
            },
            Announcement::PossibleVictory {
                seat: 1,
                identity: Identity::Bureau
            },
        ]
    );
    assert!(said[0].text.zh.contains("潜伏战线"));
}

#[test]
fn profile_death_before_win_orders_and_filters_the_announcements() {
    // Seat 1 shows 3 black and 3 red at once (e.g. the tally first sees the table late).
    let seats = [t("rrrkkk"), t("uuu")];
    let said = announce(&seats, &Profile::default());
    assert_eq!(said[0].announcement, Announcement::Death { seat: 0 });
    assert!(!said.iter().any(|s| s.announcement
        == Announcement::PossibleVictory {
            seat: 0,
            identity: Identity::Lurker
        }));
    let p = Profile {
        death_before_win: false,
        ..Profile::default()
    };
    let said = announce(&seats, &p);
    assert_eq!(
        said[0].announcement,
        Announcement::PossibleVictory {
            seat: 0,
            identity: Identity::Lurker
        }
    );
    assert_eq!(
        said.last().unwrap().announcement,
        Announcement::Death { seat: 0 }
    );
}

#[test]
fn a_bad_tally_string_is_refused() {
    assert!(SeatTally::parse("红绿").is_none());
}
