"""The engine: counter-based random streams, exact distributions, intervals and the block engine that runs kernels."""
