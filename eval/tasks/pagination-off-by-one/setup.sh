# A Python API helper that pages results, off by one at both ends; unittest catches it.
mkdir -p app tests
: > app/__init__.py
: > tests/__init__.py
cat > app/pagination.py <<'PY'
"""Splitting result lists into pages for the API."""

import math


def paginate(items, page, per_page=10):
    """Return page `page` (counted from 1) of `items`, with the number of pages there are."""
    if page < 1:
        raise ValueError("pages are counted from 1")
    start = page * per_page
    end = start + per_page
    total_pages = math.floor(len(items) / per_page)
    return {"items": items[start:end], "page": page, "total_pages": total_pages}
PY
cat > app/api.py <<'PY'
from app.pagination import paginate


def list_notes(notes, query):
    page = int(query.get("page", "1"))
    result = paginate(notes, page, per_page=int(query.get("per_page", "10")))
    return {"notes": result["items"], "page": result["page"], "pages": result["total_pages"]}
PY
cat > tests/test_pagination.py <<'PY'
import unittest

from app.api import list_notes
from app.pagination import paginate

ITEMS = list(range(1, 26))


class PaginateTest(unittest.TestCase):
    def test_first_page(self):
        self.assertEqual(paginate(ITEMS, 1)["items"], list(range(1, 11)))

    def test_last_partial_page(self):
        result = paginate(ITEMS, 3)
        self.assertEqual(result["items"], [21, 22, 23, 24, 25])
        self.assertEqual(result["total_pages"], 3)

    def test_pages_that_divide_evenly(self):
        self.assertEqual(paginate(list(range(20)), 2)["total_pages"], 2)

    def test_past_the_end(self):
        self.assertEqual(paginate(ITEMS, 4)["items"], [])

    def test_page_zero(self):
        with self.assertRaises(ValueError):
            paginate(ITEMS, 0)

    def test_api(self):
        self.assertEqual(list_notes(ITEMS, {"page": "2", "per_page": "20"}), {"notes": [21, 22, 23, 24, 25], "page": 2, "pages": 2})


if __name__ == "__main__":
    unittest.main()
PY
