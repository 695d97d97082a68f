use super::script::ScriptedTable;
use vision::source::FrameSource;

#[test]
#[ignore]
fn dbg_scan() {
    let mut t = ScriptedTable::new(3).unwrap();
    let scanner = vision::duel_table::duel_scanner(&duel::Catalogue::demo()).unwrap();
    for _ in 0..11 {
        t.next_frame().unwrap();
    }
    let f = t.next_frame().unwrap().unwrap();
    let obs = scanner.scan(&f.image, 0).unwrap();
    for c in &obs.cards {
        eprintln!(
            "{:?} {:?} {:?} conf {} cov {}",
            c.card, c.cell, c.orientation, c.confidence, c.covered
        );
    }
    vision::sheets::write_png(std::path::Path::new("/tmp/dbg.png"), &f.image).unwrap();
}
