//! 风声 live play: seat regions, the camera tally of face-up intelligence, chain entry in the panel.
