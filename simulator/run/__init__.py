"""What every run shares and knows no game: the chunked runner and its Dask backend,
checkpoints, precision targets, random streams, statistics, output files, data-file
reading, input errors, notices on long waits, lazy click groups, "did you mean" and the
shared vocabulary."""
