# Repository-root conftest: makes the checkout importable when pytest runs from it.
