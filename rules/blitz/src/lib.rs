//! 死亡前线-闪电战 (Blitz) rules engine.
