int legacy_count = 1;
