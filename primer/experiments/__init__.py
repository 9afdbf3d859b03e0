"""The trained experiments of chapters 6-9 and the data they train on: each run computed once per process."""
