//! The one property every engine is held to, written once: at any state, each action
//! `legal_actions` offers is accepted by `apply`, and a candidate it does not offer is refused with a
//! reason in both languages. Each engine's tests walk random games and call [`check_state`] at every
//! state with candidates of their own (random actions and near misses of the legal ones).

use crate::Game;

/// Checks `state` against `candidates`; returns the legal actions (for the walk to pick from).
/// `offered(legal, candidate)` says whether the candidate is among the offered ones: equality for
/// most engines, wider where one listed action stands for a family (every payment of a cost, any
/// new name of a free-text field).
pub fn check_state<G: Game>(
    state: &G::State,
    candidates: &[G::Action],
    offered: impl Fn(&[G::Action], &G::Action) -> bool,
) -> Result<Vec<G::Action>, String> {
    let legal = G::legal_actions(state);
    for action in &legal {
        if let Err(v) = G::apply(state, action) {
            return Err(format!("offered {action:?} refused: {v}"));
        }
    }
    for action in candidates {
        let listed = offered(&legal, action);
        match G::apply(state, action) {
            Ok(_) if !listed => return Err(format!("{action:?} accepted but not offered")),
            Err(v) if listed => {
                return Err(format!("{action:?} offered (as a family) but refused: {v}"))
            }
            Err(v) if v.reason.zh.trim().is_empty() || v.reason.en.trim().is_empty() => {
                return Err(format!(
                    "{action:?} refused without a reason in both languages: {v:?}"
                ))
            }
            _ => {}
        }
    }
    Ok(legal)
}

/// Equality: the candidate is one of the listed actions.
pub fn listed<A: PartialEq>(legal: &[A], action: &A) -> bool {
    legal.contains(action)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Prompt, RuleRef, Text, Violation};

    /// A counter that may go up by one or two below ten; `lax` also accepts three (a broken engine).
    struct Counter<const LAX: bool>;

    impl<const LAX: bool> Game for Counter<LAX> {
        type State = u8;
        type Action = u8;
        type Event = ();
        fn legal_actions(s: &u8) -> Vec<u8> {
            if *s < 10 {
                vec![1, 2]
            } else {
                vec![]
            }
        }
        fn apply(s: &u8, a: &u8) -> Result<(u8, Vec<()>), Violation> {
            let ok = *s < 10 && (*a == 1 || *a == 2 || (LAX && *a == 3));
            if ok {
                Ok((s + a, vec![]))
            } else {
                Err(Violation::new(RuleRef::rulebook("§1"), "不行", "no"))
            }
        }
        fn prompt(_: &u8) -> Prompt {
            Prompt {
                actor: None,
                text: Text::new("", ""),
            }
        }
    }

    #[test]
    fn an_engine_that_agrees_passes_and_one_that_accepts_more_fails() {
        let candidates = [0, 1, 2, 3, 4];
        assert_eq!(
            check_state::<Counter<false>>(&0, &candidates, listed),
            Ok(vec![1, 2])
        );
        let err = check_state::<Counter<true>>(&0, &candidates, listed).unwrap_err();
        assert!(err.contains("3 accepted but not offered"), "{err}");
        assert_eq!(
            check_state::<Counter<false>>(&10, &candidates, listed),
            Ok(vec![])
        );
    }
}
