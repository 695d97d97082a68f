//! 死亡前线-闪电战 (Blitz) rules engine.

pub mod catalogue;

#[cfg(test)]
mod tests {
    #[test]
    fn demo_catalogue_loads() {
        let cat = crate::catalogue::Catalogue::demo();
        assert!(cat.get("us-u01").is_some());
    }
}
