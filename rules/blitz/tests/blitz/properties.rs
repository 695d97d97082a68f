//! Properties over random games: `legal_actions` and `apply` agree, and no card is created or lost.

use blitz::catalogue::{Catalogue, Faction};
use blitz::{apply, legal_actions, Action, Cell, Profile, Setup, SkillTarget, State};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

fn new_game(seed: u64, four: bool, catalogue: Arc<Catalogue>) -> State {
    use Faction::*;
    let players = if four {
        vec![Us, Ss, Uk, Wh]
    } else if seed.is_multiple_of(2) {
        vec![Us, Ss]
    } else {
        vec![Wh, Uk]
    };
    State::from_setup(Setup {
        catalogue,
        profile: Profile::default(),
        players,
        seed,
        stacked_decks: vec![],
    })
    .expect("valid set-up")
}

/// Joint attacks list their units in any order; compare them as sets.
fn canonical(a: &Action) -> Action {
    match a {
        Action::Attack { attackers, target } => {
            let mut attackers = attackers.clone();
            attackers.sort_unstable();
            Action::Attack {
                attackers,
                target: *target,
            }
        }
        other => other.clone(),
    }
}

/// Any action at all, mostly nonsense: cards from the whole catalogue, cells on and off the board.
fn random_action(rng: &mut ChaCha8Rng, cards: u16) -> Action {
    let card = |rng: &mut ChaCha8Rng| rng.random_range(0..cards);
    let cell = |rng: &mut ChaCha8Rng| Cell::new(rng.random_range(-1..6), rng.random_range(-1..8));
    match rng.random_range(0..14) {
        0 => Action::Keep,
        1 => Action::Mulligan,
        2 => Action::Draw,
        3 => Action::SkipDraw,
        4 => Action::DiscardAndDraw(card(rng)),
        5 => Action::Deploy {
            card: card(rng),
            cell: cell(rng),
        },
        6 => Action::Move {
            card: card(rng),
            to: cell(rng),
        },
        7 => Action::PlaceFacility {
            card: card(rng),
            cell: cell(rng),
        },
        8 => Action::UseSkill {
            card: card(rng),
            target: match rng.random_range(0..3) {
                0 => SkillTarget::None,
                1 => SkillTarget::Card(card(rng)),
                _ => SkillTarget::Cell(cell(rng)),
            },
        },
        9 => Action::Attack {
            attackers: (0..rng.random_range(0..4)).map(|_| card(rng)).collect(),
            target: card(rng),
        },
        10 => Action::Advance(card(rng)),
        11 => Action::Hold,
        12 => Action::Done,
        _ => Action::Stalemate,
    }
}

/// A random player who finishes a step a third of the time, so hands last and games run many rounds.
pub fn pick_like_a_player(rng: &mut ChaCha8Rng, legal: &[Action]) -> Action {
    let others: Vec<&Action> = legal
        .iter()
        .filter(|a| !matches!(a, Action::Done | Action::Stalemate))
        .collect();
    let can_finish = legal.contains(&Action::Done);
    if others.is_empty() || (can_finish && rng.random_bool(1.0 / 3.0)) {
        if legal.contains(&Action::Stalemate) && rng.random_bool(0.02) {
            return Action::Stalemate;
        }
        return if can_finish {
            Action::Done
        } else {
            legal[0].clone()
        };
    }
    others[rng.random_range(0..others.len())].clone()
}

/// Plays `steps` random legal actions, checking the properties at every state.
fn check_game(seed: u64, four: bool, steps: usize, catalogue: Arc<Catalogue>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut state = new_game(seed, four, catalogue.clone());
    let total = state.card_count();
    let cards = catalogue.cards.len() as u16;
    for _ in 0..steps {
        let legal = legal_actions(&state);
        if state.outcome.is_some() {
            assert!(legal.is_empty(), "no action after the game is over");
            break;
        }
        assert!(
            !legal.is_empty(),
            "a live game always offers an action ({:?})",
            state.step
        );
        for action in &legal {
            let (next, _) =
                apply(&state, action).unwrap_or_else(|v| panic!("legal {action:?} refused: {v}"));
            assert_eq!(
                next.card_count(),
                total,
                "{action:?} created or lost a card"
            );
        }
        let candidates: Vec<Action> = (0..20).map(|_| random_action(&mut rng, cards)).collect();
        rules_core::conformance::check_state::<blitz::Blitz>(&state, &candidates, |legal, a| {
            legal.iter().any(|l| canonical(l) == canonical(a))
        })
        .unwrap_or_else(|e| panic!("{e} in {:?}", state.step));
        let pick = pick_like_a_player(&mut rng, &legal);
        state = apply(&state, &pick).expect("legal").0;
        assert_eq!(state.card_count(), total);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn legal_actions_are_exactly_the_accepted_ones_two_players(seed in any::<u64>()) {
        check_game(seed, false, 150, Arc::new(Catalogue::demo()));
    }

    #[test]
    fn legal_actions_are_exactly_the_accepted_ones_four_players(seed in any::<u64>()) {
        check_game(seed, true, 150, Arc::new(Catalogue::demo()));
    }
}

#[test]
fn random_games_on_the_test_catalogue_conserve_cards() {
    for seed in 0..8 {
        check_game(seed, seed % 2 == 1, 300, crate::table::catalogue());
    }
}
