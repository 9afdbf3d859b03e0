from primer.experiments.trained_machines import differences, training_calls

# The one line that trains each machine, read from its chapter's code (ast) while the page builds, not retyped
calls = training_calls()
for machine, (where, line) in calls.items():
    print(f"{machine} ({where}):\n    {line}")
differ, same = differences([line for _, line in calls.values()])
print(f"\nthe same in all three:   {', '.join(same)}")
print(f"different:               {', '.join(differ)}")
