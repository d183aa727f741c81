"""See bench/README.md."""
