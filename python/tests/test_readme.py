"""The README's Python examples run as they are written (its section "Use it from Python")."""
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_readme_python_examples_run():
    text = README.read_text()
    section = text[text.index("## Use it from Python"):]
    section = section[:section.index("\n## ", 3)]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "the README's Python section has no example"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})
