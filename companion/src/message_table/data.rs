//! The deck, characters and identity table a 风声 table reads and rules with: the shipped ones or
//! the players' files, kept whole in the journal so a table resumes without the files.

use crate::table::files::DataText;
use message::catalogue::{CHARACTERS_TOML, DECK_TOML, IDENTITIES_TOML};
use message::Catalogue;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogueFiles {
    pub deck: DataText,
    pub characters: DataText,
    pub identities: DataText,
}

impl CatalogueFiles {
    pub fn shipped() -> CatalogueFiles {
        let shipped = |name: &str, text: &str| {
            DataText::shipped(&format!("models/catalogues/message/{name}"), text)
        };
        CatalogueFiles {
            deck: shipped("deck.toml", DECK_TOML),
            characters: shipped("characters.toml", CHARACTERS_TOML),
            identities: shipped("identities.toml", IDENTITIES_TOML),
        }
    }

    /// The files given, the shipped ones for the others, read now (checked by [`Self::load`]).
    pub fn given_or_shipped(
        deck: Option<&Path>,
        characters: Option<&Path>,
        identities: Option<&Path>,
    ) -> anyhow::Result<CatalogueFiles> {
        let shipped = CatalogueFiles::shipped();
        Ok(CatalogueFiles {
            deck: DataText::given_or(deck, shipped.deck)?,
            characters: DataText::given_or(characters, shipped.characters)?,
            identities: DataText::given_or(identities, shipped.identities)?,
        })
    }

    /// [`Self::given_or_shipped`], `None` when no file is given.
    pub fn given(
        deck: Option<&Path>,
        characters: Option<&Path>,
        identities: Option<&Path>,
    ) -> anyhow::Result<Option<CatalogueFiles>> {
        if deck.is_none() && characters.is_none() && identities.is_none() {
            return Ok(None);
        }
        CatalogueFiles::given_or_shipped(deck, characters, identities).map(Some)
    }

    /// The catalogue; an error names the file and what is wrong in it.
    pub fn load(&self) -> anyhow::Result<Catalogue> {
        fn pair(d: &DataText) -> (&str, &str) {
            (&d.origin, &d.text)
        }
        Catalogue::parse(
            pair(&self.deck),
            pair(&self.characters),
            pair(&self.identities),
        )
        .map_err(|e| anyhow::anyhow!("{e}"))
    }
}
