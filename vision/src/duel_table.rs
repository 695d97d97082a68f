//! 陣面對決 at the table: Duel card faces, the Duel mat scene, reading 陣地 rows and territories.
