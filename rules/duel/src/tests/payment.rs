//! 资源 费用: the player chooses which territories pay; and the table's hidden-zone reconciliation.

use super::*;

fn lands_with_one_tapped(s: &mut State) -> Vec<CardId> {
    lands(s, 0, "wei-land", 4);
    s.players[0].territories[3].tapped = true;
    s.players[0].territories.iter().map(|t| t.card).collect()
}

#[test]
fn resource_cost_taps_exactly_the_chosen_territories() {
    let mut s = table(&[], &[]);
    let t = lands_with_one_tapped(&mut s);
    let card = hand(&mut s, 0, "wei-03");
    let cost = s.def(card).cost as usize;
    assert_eq!(cost, 2, "wei-03 costs 2 in the demo catalogue");
    let (after, _) = act(&s, play(card, Some(0), None).paid_with(vec![t[2], t[0]]));
    let tapped: Vec<bool> = after.players[0]
        .territories
        .iter()
        .map(|x| x.tapped)
        .collect();
    assert_eq!(tapped, [true, false, true, true]);
}

#[test]
fn resource_cost_refuses_a_payment_of_the_wrong_size_a_tapped_or_foreign_territory() {
    let mut s = table(&[], &[]);
    let t = lands_with_one_tapped(&mut s);
    lands(&mut s, 1, "wei-land", 1);
    let theirs = s.players[1].territories[0].card;
    let card = hand(&mut s, 0, "wei-03");
    let before = s.clone();
    for pay in [
        vec![t[0]],
        vec![t[0], t[1], t[2]],
        vec![t[0], t[3]],
        vec![t[0], t[0]],
        vec![t[0], theirs],
    ] {
        let v = refused(&s, play(card, Some(0), None).paid_with(pay.clone()));
        assert!(rule_of(&v).contains("费用"), "{pay:?}: {v}");
    }
    assert_eq!(s.players, before.players, "a refusal changes nothing");
}

#[test]
fn resource_cost_the_activated_territory_cannot_pay_for_itself() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "wei-land", 3);
    let t: Vec<CardId> = s.players[0].territories.iter().map(|x| x.card).collect();
    let a = Action::ActivateTerritory {
        territory: t[0],
        pay: None,
    };
    assert_eq!(s.payment_choices(&a, 10), vec![vec![t[1], t[2]]]);
    assert!(!s.payment_is_a_choice(&a));
    assert!(rule_of(&refused(&s, a.paid_with(vec![t[0], t[1]]))).contains("费用"));
    act(&s, a.paid_with(vec![t[2], t[1]]));
}

#[test]
fn resource_cost_choices_list_every_way_to_pay() {
    let mut s = table(&[], &[]);
    lands_with_one_tapped(&mut s);
    let card = hand(&mut s, 0, "wei-03");
    let a = play(card, Some(0), None);
    assert_eq!(s.payment_choices(&a, 100).len(), 3, "3 untapped choose 2");
    assert!(s.payment_is_a_choice(&a));
}

#[test]
fn table_reveal_swaps_the_seen_card_into_the_hand_and_keeps_every_zone_size() {
    let mut s = table(&[], &[]);
    let def = s.catalogue.find("wei-09").unwrap();
    s.players[0]
        .hand
        .retain(|&c| s.cards[c as usize].def != def);
    let sizes = |s: &State| (s.players[0].hand.len(), s.players[0].library.len());
    let before = sizes(&s);
    let c = s.reveal_in_hand(0, def).expect("in the library");
    assert_eq!(s.cards[c as usize].def, def);
    assert!(s.players[0].hand.contains(&c));
    assert_eq!(sizes(&s), before);
    let mut ids = s.all_card_ids();
    ids.sort_unstable();
    assert_eq!(ids, (0..s.cards.len() as CardId).collect::<Vec<_>>());
    assert_eq!(
        s.reveal_in_hand(0, def),
        Some(c),
        "already in hand: no swap"
    );
}
