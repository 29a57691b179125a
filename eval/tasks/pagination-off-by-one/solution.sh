# The reference solution the tests apply (test/e2e/eval-suite.test.ts): pages start at index (page - 1) * per_page, and a partial last page counts.
python3 - <<'PY'
path = "app/pagination.py"
text = open(path).read()
text = text.replace("start = page * per_page", "start = (page - 1) * per_page")
text = text.replace("math.floor(len(items) / per_page)", "math.ceil(len(items) / per_page)")
open(path, "w").write(text)
PY
