"""What anyone can check offline (exports, tournament bundles, golden logs) and the keys that sign."""
