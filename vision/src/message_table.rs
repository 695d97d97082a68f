//! 风声 at the table: intelligence card faces, table scenes with seats, reading each seat's face-up intelligence.
