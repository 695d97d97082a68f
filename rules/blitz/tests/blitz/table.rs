//! A table for tests: a game on the small test catalogue, driven by the action notation.

use blitz::catalogue::{Catalogue, Faction};
use blitz::steps::Step;
use blitz::{apply, check_as, Action, Event, Profile, Setup, State};
use std::sync::Arc;

pub const CATALOGUE: &str = include_str!("../data/test-catalogue.toml");

pub fn catalogue() -> Arc<Catalogue> {
    Arc::new(
        Catalogue::from_toml("tests/data/test-catalogue.toml", CATALOGUE)
            .expect("test catalogue loads"),
    )
}

pub struct Table {
    pub state: State,
}

impl Table {
    /// Two players, US (Allied) against SS (Axis); each hand is the listed cards (top of the deck).
    pub fn two(us: &[&str], ss: &[&str]) -> Table {
        Table::with(&[Faction::Us, Faction::Ss], &[us, ss], Profile::default())
    }

    /// Four players in seat order US, SS, UK, WH.
    pub fn four(hands: [&[&str]; 4]) -> Table {
        Table::with(
            &[Faction::Us, Faction::Ss, Faction::Uk, Faction::Wh],
            &hands,
            Profile::default(),
        )
    }

    pub fn with(players: &[Faction], hands: &[&[&str]], profile: Profile) -> Table {
        let setup = Setup {
            catalogue: catalogue(),
            profile,
            players: players.to_vec(),
            seed: 1,
            stacked_decks: hands
                .iter()
                .map(|h| h.iter().map(|s| s.to_string()).collect())
                .collect(),
        };
        Table {
            state: State::from_setup(setup).expect("valid set-up"),
        }
    }

    pub fn action(&self, text: &str) -> Action {
        Action::parse(&self.state, text).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Applies an action that must be accepted; returns its events.
    pub fn ok(&mut self, text: &str) -> Vec<Event> {
        let action = self.action(text);
        match apply(&self.state, &action) {
            Ok((next, events)) => {
                self.state = next;
                events
            }
            Err(v) => panic!("`{text}` refused in {:?}: {v}", self.state.step),
        }
    }

    /// Asserts the action is refused under `rule` (a substring of the citation); the state is unchanged.
    pub fn refused(&self, text: &str, rule: &str) {
        let action = self.action(text);
        match apply(&self.state, &action) {
            Ok(_) => panic!("`{text}` was accepted; expected a refusal under {rule}"),
            Err(v) => assert!(
                v.rule.to_string().contains(rule),
                "`{text}` refused under {} instead of {rule}: {v}",
                v.rule
            ),
        }
    }

    pub fn refused_as(&self, faction: Faction, text: &str, rule: &str) {
        let seat = self
            .state
            .players
            .iter()
            .position(|p| p.faction == faction)
            .expect("seat");
        let err = check_as(&self.state, seat, &self.action(text)).expect_err("refused");
        assert!(err.rule.to_string().contains(rule), "{err}");
    }

    pub fn ok_as(&mut self, faction: Faction, text: &str) -> Vec<Event> {
        let seat = self
            .state
            .players
            .iter()
            .position(|p| p.faction == faction)
            .expect("seat");
        check_as(&self.state, seat, &self.action(text)).unwrap_or_else(|v| panic!("{v}"));
        self.ok(text)
    }

    pub fn script(&mut self, lines: &str) {
        for line in lines.lines().map(str::trim).filter(|l| !l.is_empty()) {
            self.ok(line);
        }
    }

    /// Everyone keeps, skips or passes until the game reaches `step` (in this or the next round).
    pub fn pass_to(&mut self, step: Step) {
        let mut guard = 0;
        while self.state.step != step {
            let filler = match self.state.step {
                Step::Mulligan => "keep",
                Step::Draw
                    if self.state.players[self.state.actor().expect("actor")]
                        .hand
                        .len()
                        >= 8 =>
                {
                    "skip-draw"
                }
                Step::Draw => "draw",
                Step::Over => panic!("the game ended before {step:?}: {:?}", self.state.outcome),
                _ => "done",
            };
            self.ok(filler);
            guard += 1;
            assert!(guard < 100, "stuck passing to {step:?}");
        }
    }

    /// Passes through the rest of this round to the next round's deploy step.
    pub fn next_round_deploy(&mut self) {
        let round = self.state.round;
        self.pass_to(Step::Draw);
        assert_eq!(self.state.round, round + 1);
        self.pass_to(Step::DeployMove);
    }

    pub fn card(&self, id: &str) -> u16 {
        self.state.card_by_id(id).expect("card id")
    }

    pub fn cell_of(&self, id: &str) -> Option<String> {
        self.state.placed(self.card(id)).map(|p| p.cell.to_string())
    }

    pub fn in_discard(&self, id: &str) -> bool {
        let c = self.card(id);
        self.state.players.iter().any(|p| p.discard.contains(&c))
    }

    pub fn faction_to_act(&self) -> Faction {
        self.state.players[self.state.actor().expect("actor")].faction
    }
}
