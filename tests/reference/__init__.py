"""The interpreter the engine ran before it compiled the DSL to Python, and its machine:
the oracle the tests compare the generated code with (never shipped in the wheel)."""
