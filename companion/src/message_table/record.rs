//! The 风声 table's journal: the header (players, profile, the seat regions at the start), then
//! each committed step ([`Step`]) in order. Replaying the steps rebuilds the tallies, the
//! corrections, the deaths and what was announced, each announcement made once.

use super::data::CatalogueFiles;
use super::session::{Step, TableSession};
use crate::table::journal::{expect_game, Journal};
use anyhow::bail;
use message::Profile;
use serde::{Deserialize, Serialize};
use std::path::Path;
use vision::games::message::SeatRegions;

const GAME: &str = "message";
const FORMAT: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always "message": another game's journal is refused.
    pub game: String,
    pub format: u32,
    pub profile: Profile,
    pub regions: SeatRegions,
    /// The deck, characters and identities when not the shipped ones, whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<CatalogueFiles>,
}

/// A table continued from its journal.
pub struct Resumed {
    pub session: TableSession,
    /// The data files the table was started with (`None`: the shipped ones).
    pub data: Option<CatalogueFiles>,
    /// A cut-off last line was dropped.
    pub warning: Option<String>,
}

/// A new table session journalled at `path`.
pub fn start(
    path: &Path,
    regions: SeatRegions,
    profile: Profile,
    data: Option<CatalogueFiles>,
) -> anyhow::Result<TableSession> {
    let header = Header {
        game: GAME.into(),
        format: FORMAT,
        profile: profile.clone(),
        regions: regions.clone(),
        data,
    };
    let journal = Journal::create(path, &header)?;
    let mut session = TableSession::new(regions, profile);
    session.keep_journal(journal, false);
    Ok(session)
}

/// Continues the table in the journal at `path`.
pub fn resume(path: &Path) -> anyhow::Result<Resumed> {
    let (journal, resumed) = Journal::resume::<Header, Step>(path)?;
    let h = resumed.header;
    expect_game(path, (&h.game, h.format), (GAME, FORMAT), "风声")?;
    let mut session = TableSession::new(h.regions, h.profile);
    for (i, step) in resumed.entries.into_iter().enumerate() {
        let line = i + 2;
        match step {
            Step::Camera { frame, counts } => {
                session.take_camera(frame, counts);
            }
            Step::Correct { seat, by } => {
                if seat >= session.corrections.len() {
                    bail!("{}:{line}: no seat {}", path.display(), seat + 1);
                }
                session.set_correction(seat, by);
            }
            Step::UndoDeath { seat } => {
                session
                    .undo_death(seat)
                    .map_err(|e| anyhow::anyhow!("{}:{line}: {e}", path.display()))?;
            }
            Step::Regions(r) => session.set_regions(r),
            Step::Confirm(policy) => {
                session.set_confirm(policy);
            }
        }
    }
    session.keep_journal(journal, true);
    Ok(Resumed {
        session,
        data: h.data,
        warning: resumed.warning,
    })
}
