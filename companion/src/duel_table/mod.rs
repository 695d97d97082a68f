//! 陣面對決 live play: camera 陣地 rows → engine, paying with territories, the stack and priority panel.
