//! One sitting of deck enrolment: the id list in laying order, the reference file it grows, and
//! where in the list the next block starts. The CLI (one photo per block) and the panel (the block
//! under the camera when the player says so) both go through it.

use anyhow::Context;
use opencv::core::Mat;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use vision::detector::deck::{confusable, enrol_block, EnrolledCard};
use vision::detector::DetectedCard;
use vision::embed::Embedder;
use vision::identify::{Reference, ReferenceSet};

pub struct Sitting {
    /// Every id to enrol, in the order the cards are laid.
    pub ids: Vec<String>,
    /// A name to show beside an id (the catalogue's), where known.
    names: HashMap<String, String>,
    set: ReferenceSet,
    refs: PathBuf,
    crops: PathBuf,
    /// Position in `ids` of the next block's first card.
    pub next: usize,
    /// Ids enrolled in this sitting, in the order they were taken.
    pub enrolled: Vec<String>,
    /// Ids of blocks skipped after a refusal and not enrolled since.
    pub missing: Vec<String>,
}

/// What taking one block gave.
pub struct Taken {
    pub ids: Vec<String>,
    pub cards: Vec<EnrolledCard>,
    /// Why nothing of the block was enrolled.
    pub problem: Option<String>,
}

impl Sitting {
    /// Opens `refs` (created on the first save when missing). `start`: where the first block
    /// begins; `None`: at the first id `refs` does not hold yet, so a sitting goes on where the
    /// last one ended.
    pub fn open(
        ids: Vec<String>,
        names: HashMap<String, String>,
        refs: &Path,
        start: Option<usize>,
    ) -> anyhow::Result<Sitting> {
        anyhow::ensure!(!ids.is_empty(), "no ids to enrol");
        let set = if refs.exists() {
            ReferenceSet::load(refs)?
        } else {
            ReferenceSet::default()
        };
        let next = match start {
            Some(s) => {
                anyhow::ensure!(s < ids.len(), "--start {s}: the list has {} ids", ids.len());
                s
            }
            None => ids
                .iter()
                .position(|id| !holds(&set, id))
                .unwrap_or(ids.len()),
        };
        Ok(Sitting {
            ids,
            names,
            set,
            refs: refs.to_path_buf(),
            crops: crops_dir(refs),
            next,
            enrolled: Vec::new(),
            missing: Vec::new(),
        })
    }

    pub fn refs_path(&self) -> &Path {
        &self.refs
    }

    pub fn name(&self, id: &str) -> Option<&str> {
        self.names.get(id).map(String::as_str)
    }

    /// The ids of the next block of `size` cards (fewer at the end of the list).
    pub fn block(&self, size: usize) -> &[String] {
        let start = self.next.min(self.ids.len());
        &self.ids[start..(start + size.max(1)).min(self.ids.len())]
    }

    pub fn done(&self) -> bool {
        self.next >= self.ids.len()
    }

    /// How many ids of the list the reference file holds a learned print of.
    pub fn held(&self) -> usize {
        self.ids.iter().filter(|id| holds(&self.set, id)).count()
    }

    /// Enrols the next block (`cols` × `rows`) from `cards` found in `photo`: stores each card's
    /// crop and embedding, saves the reference file and moves on. A refused block leaves
    /// everything as it was (the player lays it again, or skips it).
    pub fn take(
        &mut self,
        cards: &[DetectedCard],
        embedder: &Embedder,
        photo: &Mat,
        cols: usize,
        rows: usize,
    ) -> anyhow::Result<Taken> {
        let ids = self.block(cols * rows).to_vec();
        anyhow::ensure!(!ids.is_empty(), "every id of the list is laid already");
        let got = enrol_block(cards, embedder, photo, &ids, cols)?;
        if got.problem.is_some() {
            return Ok(Taken {
                ids,
                cards: Vec::new(),
                problem: got.problem,
            });
        }
        std::fs::create_dir_all(&self.crops).with_context(|| self.crops.display().to_string())?;
        for card in &got.enrolled {
            let path = self.crops.join(format!("{}.png", card.id));
            vision::sheets::write_png(&path, &card.crop)?;
            self.set.refs.retain(|r| r.card != card.id);
            self.set.refs.push(Reference {
                card: card.id.clone(),
                coarse: Vec::new(),
                fine: Vec::new(),
                full: Vec::new(),
                embedding: card.embedding.clone(),
            });
            self.missing.retain(|m| m != &card.id);
            self.enrolled.push(card.id.clone());
        }
        self.save()?;
        self.next += ids.len();
        Ok(Taken {
            ids,
            cards: got.enrolled,
            problem: None,
        })
    }

    /// Passes over the next block, noting its ids as missing.
    pub fn skip(&mut self, size: usize) {
        let ids = self.block(size).to_vec();
        self.next += ids.len();
        for id in ids {
            if !self.missing.contains(&id) {
                self.missing.push(id);
            }
        }
    }

    /// Goes back one block of `size` (to lay it again).
    pub fn back(&mut self, size: usize) {
        self.next = self.next.saturating_sub(size.max(1));
    }

    /// Enrolled prints at least `min_cosine` alike, most alike first.
    pub fn confusable(&self, min_cosine: f32) -> Vec<(String, String, f32)> {
        let with_embeddings: Vec<(String, Vec<f32>)> = self
            .set
            .refs
            .iter()
            .filter(|r| !r.embedding.is_empty())
            .map(|r| (r.card.clone(), r.embedding.clone()))
            .collect();
        confusable(&with_embeddings, min_cosine)
    }

    pub fn save(&self) -> anyhow::Result<()> {
        if let Some(dir) = self.refs.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
        }
        self.set.save(&self.refs)?;
        Ok(())
    }
}

fn holds(set: &ReferenceSet, id: &str) -> bool {
    set.refs
        .iter()
        .any(|r| r.card == id && !r.embedding.is_empty())
}

/// Where the crops of `refs` are kept: `<stem>-crops/` beside it.
pub fn crops_dir(refs: &Path) -> PathBuf {
    let stem = refs
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "refs".into());
    refs.with_file_name(format!("{stem}-crops"))
}
