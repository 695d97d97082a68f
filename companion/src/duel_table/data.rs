//! What a Duel table game is set up from: a catalogue and the two decks, the shipped demo ones or
//! the players' files. Kept whole in the journal's header, so a game resumes without the files.

use crate::table::files::DataText;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The catalogue and the near and far players' decks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameData {
    pub catalogue: DataText,
    /// Near player first.
    pub decks: [DataText; 2],
}

impl GameData {
    pub fn demo() -> GameData {
        GameData {
            catalogue: DataText::shipped(
                "models/catalogues/duel/demo.toml",
                duel::catalogue::DEMO_TOML,
            ),
            decks: duel::DEMO_DECKS.map(|(origin, text)| DataText::shipped(origin, text)),
        }
    }

    /// The files given, the shipped demo ones for the others, read now (checked by
    /// [`Self::load`]); `None` when no file is given (the demo).
    pub fn from_files(
        catalogue: Option<&Path>,
        decks: [Option<&Path>; 2],
    ) -> anyhow::Result<Option<GameData>> {
        if catalogue.is_none() && decks.iter().all(Option::is_none) {
            return Ok(None);
        }
        let demo = GameData::demo();
        let [near, far] = decks;
        let [demo_near, demo_far] = demo.decks;
        Ok(Some(GameData {
            catalogue: DataText::given_or(catalogue, demo.catalogue)?,
            decks: [
                DataText::given_or(near, demo_near)?,
                DataText::given_or(far, demo_far)?,
            ],
        }))
    }

    /// The catalogue and the two decks' cards; an error names the file and what is wrong in it.
    pub fn load(&self) -> anyhow::Result<(duel::Catalogue, [Vec<usize>; 2])> {
        let cat = duel::Catalogue::parse(&self.catalogue.origin, &self.catalogue.text)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let deck = |d: &DataText| {
            duel::parse_deck(&d.origin, &d.text, &cat, &duel::Profile::default(), None)
                .map(|d| d.main)
                .map_err(|e| anyhow::anyhow!("{e}"))
        };
        let decks = [deck(&self.decks[0])?, deck(&self.decks[1])?];
        Ok((cat, decks))
    }
}
