import yaml

from primer.figures.glossary import glossary_table

with open("docs/snippets/glossary/terms.yml", encoding="utf-8") as f:
    data = yaml.safe_load(f)
print(glossary_table(data["terms"], data["glossary"]))
