int legacy_twice(int v);
