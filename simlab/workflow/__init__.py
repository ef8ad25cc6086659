"""The workflow: experiments, running them (in parallel), comparisons, regression checks, benchmarks."""
