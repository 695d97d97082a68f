//! Shared set-up for the vision tests: the demo catalogue, its renderer and scanner, built once.

use std::sync::OnceLock;

pub struct Kit {
    pub catalogue: blitz::catalogue::Catalogue,
    pub renderer: vision::scene::SceneRenderer,
    pub scanner: vision::Scanner,
}

pub fn kit() -> &'static Kit {
    static KIT: OnceLock<Kit> = OnceLock::new();
    KIT.get_or_init(|| {
        let catalogue = blitz::catalogue::Catalogue::demo();
        let renderer = vision::scene::SceneRenderer::new(&catalogue).expect("renderer");
        let scanner = vision::Scanner::new(&catalogue, Default::default()).expect("scanner");
        Kit {
            catalogue,
            renderer,
            scanner,
        }
    })
}
