"""The inputs each chapter's page feeds primer (sentences, prompts, seeds, sizes): constants, a module per chapter."""
