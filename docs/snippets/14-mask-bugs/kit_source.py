import inspect

import primer.mask_checks

# The kit a reader copies is primer's own file, shown whole: print it as a Python block of the page.
print(f"```python\n{inspect.getsource(primer.mask_checks)}```")
