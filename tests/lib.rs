//! End-to-end tests live in e2e/ (one integration-test binary).
