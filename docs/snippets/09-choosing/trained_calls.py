from primer.trained_machines import training_calls

# The lines of chapters 6-8's training code that pass the masks, read from that code (ast), not retyped
for machine, sites in training_calls().items():
    print(f"{machine}:")
    for module, function, lines in sites:
        print(f"  {module}.{function}")
        for line in lines:
            print(f"      {line}")
