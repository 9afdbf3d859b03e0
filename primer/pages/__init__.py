"""The inputs each chapter's page feeds to primer (sentences, prompts, seeds, sizes): constants only, one module per chapter."""
