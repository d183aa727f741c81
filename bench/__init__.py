"""temex's benchmarks and probes, sorted by purpose (bench/README.md).

Run a script as a module from the repository root, with the interpreter of
the README's set-up: ``.venv/bin/python -m bench.eval.bench_core --help``.
"""
